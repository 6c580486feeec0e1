// SPDX-License-Identifier: BSD-2-Clause
/*
 * Running perf over a measured window. `perf record -e EVENT -g -C
 * CPUS -D -1 --control fd:CTL,ACK` starts with its events disabled; we
 * write "enable" into its control pipe when the window opens and
 * "disable" when it closes, each acknowledged ("ack") by perf
 * (perf-record(1), --control), so set-up and tear-down are not sampled.
 * EVENT is cycles where the CPU has a PMU perf can open, else cpu-clock,
 * a software event that works in VMs without one (as here). Then
 * `perf script` is folded by folded.c and drawn by flame.c.
 * net.core.bpf_jit_kallsyms=1 makes the kernel publish JIT-ed programs in
 * kallsyms as bpf_prog_<tag>_<name>, which perf names in the stacks.
 * perf runs from argv vectors (child.c), never through a shell: the
 * --profile-dir is data. Its perf.data and log go to a directory of ours
 * under $TMPDIR (xdplab-perf.PID.XXXXXX, which `xdplab cleanup` removes
 * when we are killed); only the results, and the log when perf said
 * something, are written under --profile-dir, each by a temporary name
 * renamed into place (atomicfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "xdplab/atomicfile.h"
#include "xdplab/child.h"
#include "xdplab/jitstate.h"
#include "xdplab/log.h"
#include "xdplab/netns.h"
#include "xdplab/profile.h"
#include "xdplab/time.h"
#include "xdplab/tmpdir.h"

#define JIT_KALLSYMS "/proc/sys/net/core/bpf_jit_kallsyms"

struct xl_profiler {
	char dir[2048], perf[256];
	char tmp[PATH_MAX]; /* ours: perf.data, perf.log; "" when not made */
	char name[64];
	int jit_kallsyms_old; /* -1: not changed */
	int jit_fd; /* bpf_jit_kallsyms, opened where it exists, to restore from any namespace */
	char event[16]; /* "cycles" or "cpu-clock" */
	struct xl_child child; /* perf record; pid 0 when not running */
	int ctl, ack;
	struct xl_prof_cpu cpus[XL_PROF_MAX_CPUS];
	int ncpus;
};

/*
 * fopen() @path in the initial network namespace when it is not in ours:
 * net.core.bpf_jit_kallsyms exists only there, and the commands run in a
 * lab's namespace with --netns. setns() moves only the calling thread,
 * and it comes back before we return.
 */
static FILE *fopen_init_net(const char *path, const char *mode)
{
	struct xl_netns_saved saved;
	FILE *f = fopen(path, mode);
	int err;

	if (f || errno != ENOENT || strncmp(path, "/proc/sys/net/", 14))
		return f;
	if (xl_netns_enter_path("/proc/1/ns/net", &saved)) {
		errno = ENOENT;
		return NULL;
	}
	f = fopen(path, mode);
	err = f ? 0 : errno;
	xl_netns_restore(&saved);
	errno = err;
	return f;
}

/* The fd under @f (closing @f), or -1 when @f is NULL. */
static int fileno_dup(FILE *f)
{
	int fd;

	if (!f)
		return -1;
	fd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
	fclose(f);
	return fd;
}

static int fd_read_int(int fd, int *v)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return n < 0 ? -errno : -EINVAL;
	buf[n] = 0;
	*v = atoi(buf);
	return 0;
}

/* A sysctl file takes a whole new value written at offset 0. */
static int fd_write_int(int fd, int v)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", v);

	return pwrite(fd, buf, n, 0) == n ? 0 : -errno;
}

static int read_int(const char *path, int *v)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%d", v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/* "cycles" when a hardware cycle counter can be opened on CPU 0, else "cpu-clock". */
static const char *pick_event(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .size = sizeof(a),
				     .config = PERF_COUNT_HW_CPU_CYCLES, .disabled = 1 };
	int fd = syscall(SYS_perf_event_open, &a, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return "cpu-clock";
	close(fd);
	return "cycles";
}

/* Kernel addresses are visible to us: the first /proc/kallsyms entry is not 0. */
static bool kallsyms_visible(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long a = 0;
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%llx", &a) == 1 && a;
	fclose(f);
	return ok;
}

static void tmp_path(const struct xl_profiler *p, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", p->tmp, name);
}

/* Remove our temporary directory and what perf left in it. */
static void tmp_remove(struct xl_profiler *p)
{
	static const char *const files[] = { "perf.data", "perf.data.old", "perf.log" };
	char f[PATH_MAX + 16];
	size_t i;

	if (!p->tmp[0])
		return;
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		tmp_path(p, files[i], f, sizeof(f));
		unlink(f);
	}
	rmdir(p->tmp);
	p->tmp[0] = '\0';
}

struct xl_profiler *xl_profiler__open(const char *dir, const char *perf, char *why, size_t len)
{
	struct xl_profiler *p;
	int paranoid = 2, err;

	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(why, len, "profile: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	p->jit_kallsyms_old = -1;
	p->jit_fd = -1;
	p->ctl = p->ack = -1;
	snprintf(p->perf, sizeof(p->perf), "%s", perf ? perf : "perf");
	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	snprintf(p->event, sizeof(p->event), "%s", pick_event());
	err = xl_run_cmd((char *[]){ p->perf, "--version", NULL }, NULL, 0);
	if (err) {
		snprintf(why, len, "profile: %s not found or not working: install it (apt-get install linux-perf); running without a profile",
			 p->perf);
		err = -ENOENT;
		goto out_free;
	}
	read_int("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	if (geteuid() != 0 && paranoid > 0) {
		snprintf(why, len, "profile: perf_event_paranoid is %d and we are not root: run as root or sysctl kernel.perf_event_paranoid=-1; running without a profile",
			 paranoid);
		err = -EPERM;
		goto out_free;
	}
	if (!kallsyms_visible()) {
		snprintf(why, len, "profile: kernel symbols are hidden (/proc/kallsyms reads 0): sysctl kernel.kptr_restrict=0; running without a profile");
		err = -EPERM;
		goto out_free;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		err = -errno;
		snprintf(why, len, "profile: cannot create --profile-dir %s: %s; running without a profile",
			 dir, strerror(-err));
		goto out_free;
	}
	err = xl_run_mkdtemp(p->tmp, sizeof(p->tmp), "xdplab-perf");
	if (err) {
		char t[PATH_MAX + 8];

		p->tmp[0] = '\0';
		snprintf(why, len, "profile: cannot make a temporary directory in %s: %s; running without a profile",
			 xl_tmpdir_named(t, sizeof(t)), strerror(-err));
		goto out_free;
	}
	p->jit_fd = fileno_dup(fopen_init_net(JIT_KALLSYMS, "r+"));
	if (p->jit_fd < 0 || fd_read_int(p->jit_fd, &p->jit_kallsyms_old)) {
		p->jit_kallsyms_old = -1;
		xl_warn("profile: %s cannot be read: BPF programs may show as [unknown]", JIT_KALLSYMS);
	} else if (p->jit_kallsyms_old != 1) {
		err = fd_write_int(p->jit_fd, 1);
		if (err) {
			snprintf(why, len, "profile: cannot set %s to 1: %s (run as root); running without a profile",
				 JIT_KALLSYMS, strerror(-err));
			goto out_free;
		}
		/* For `xdplab cleanup`, should we be SIGKILLed before restoring it. */
		err = xl_jit_state_save(p->jit_kallsyms_old);
		if (err)
			xl_warn("profile: cannot record %s's value in %s: %s (a killed run leaves it at 1)",
				JIT_KALLSYMS, XL_RUN_STATE_DIR, strerror(-err));
	} else {
		p->jit_kallsyms_old = -1; /* already on: nothing to restore */
	}
	return p;

out_free:
	if (p->jit_fd >= 0)
		close(p->jit_fd);
	tmp_remove(p);
	free(p);
	errno = -err;
	return NULL;
}

/* Send @cmd on the control pipe and wait up to 5 s for perf's "ack". */
static int control(struct xl_profiler *p, const char *cmd)
{
	char buf[16];
	uint64_t t0;
	ssize_t n;

	/* A socket, not a pipe: a perf that died gives EPIPE, not SIGPIPE. */
	if (send(p->ctl, cmd, strlen(cmd), MSG_NOSIGNAL) != (ssize_t)strlen(cmd))
		return -EPIPE;
	t0 = xl_now_ns();
	for (;;) {
		n = read(p->ack, buf, sizeof(buf) - 1);
		if (n > 0)
			return 0;
		if (n == 0)
			return -EPIPE; /* perf exited */
		if (errno != EAGAIN && errno != EINTR)
			return -errno;
		if (xl_now_ns() - t0 > 5000000000ull)
			return -ETIMEDOUT;
		usleep(2000);
	}
}

static void reap(struct xl_profiler *p, int sig)
{
	xl_child_stop(&p->child, sig, 1000);
	if (p->ctl >= 0)
		close(p->ctl);
	if (p->ack >= 0)
		close(p->ack);
	p->ctl = p->ack = -1;
}

void xl_profiler__close(struct xl_profiler *p)
{
	if (!p)
		return;
	reap(p, SIGKILL);
	if (p->jit_kallsyms_old >= 0) {
		if (fd_write_int(p->jit_fd, p->jit_kallsyms_old))
			xl_warn("profile: could not restore %s to %d", JIT_KALLSYMS, p->jit_kallsyms_old);
		else
			xl_jit_state_clear();
	}
	if (p->jit_fd >= 0)
		close(p->jit_fd);
	tmp_remove(p);
	free(p);
}

static void path_of(const struct xl_profiler *p, const char *ext, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.%s", p->dir, p->name, ext);
}

/*
 * Copy what perf said (our perf.log) to DIR/NAME.perf.log, by a temporary
 * name renamed into place, and empty ours for the next recording; into
 * @shown the path a message should name ("" when perf said nothing).
 */
static void keep_log(struct xl_profiler *p, char *shown, size_t len)
{
	char tmp[PATH_MAX + 16], buf[4096];
	struct xl_afile a;
	size_t n, total = 0;
	FILE *in;
	int err;

	shown[0] = '\0';
	tmp_path(p, "perf.log", tmp, sizeof(tmp));
	in = fopen(tmp, "re");
	if (!in)
		return;
	path_of(p, "perf.log", shown, len);
	err = xl_afile_open(&a, shown, 0644);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		total += n;
		if (!err && fwrite(buf, 1, n, a.f) != n)
			err = a.err ? a.err : -EIO; /* the stream's own errno: -ENOSPC on a full disk */
	}
	fclose(in);
	if (!total) {
		if (!err)
			xl_afile_abort(&a);
		shown[0] = '\0';
	} else if (!err) {
		err = xl_afile_commit(&a);
	} else {
		xl_afile_abort(&a);
	}
	if (total && err) {
		xl_warn("profile: cannot write %s: %s (perf's log stays in %s until the run ends)",
			shown, strerror(-err), tmp);
		snprintf(shown, len, "%s", tmp);
		return;
	}
	truncate(tmp, 0);
}

int xl_profiler__start(struct xl_profiler *p, const struct xl_prof_cpu *cpus, int n,
		       const char *name)
{
	char cpulist[64] = "", data[PATH_MAX + 16], log[PATH_MAX + 16], ctlarg[32];
	struct xl_child_opts co = { .out_to_err = true };
	int ctl[2], ack[2], pass[2], i, err;

	if (p->child.pid || n <= 0 || n > XL_PROF_MAX_CPUS)
		return -EINVAL;
	memcpy(p->cpus, cpus, n * sizeof(*cpus));
	p->ncpus = n;
	snprintf(p->name, sizeof(p->name), "%s", name);
	for (i = 0; i < n; i++)
		snprintf(cpulist + strlen(cpulist), sizeof(cpulist) - strlen(cpulist), "%s%d",
			 i ? "," : "", cpus[i].cpu);
	tmp_path(p, "perf.data", data, sizeof(data));
	tmp_path(p, "perf.log", log, sizeof(log));
	co.err_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (co.err_fd < 0)
		return -errno;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctl)) {
		err = -errno;
		goto out_log;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ack)) {
		err = -errno;
		goto out_ctl;
	}
	/*
	 * perf's ends of the sockets are passed under their numbers. It dies
	 * with us (SIGKILL, child.c): a killed run leaves no perf recording
	 * on, and its perf.data only in our directory, for `xdplab cleanup`.
	 */
	pass[0] = ctl[0];
	pass[1] = ack[1];
	co.pass_fds = pass;
	co.npass = 2;
	snprintf(ctlarg, sizeof(ctlarg), "fd:%d,%d", ctl[0], ack[1]);
	err = xl_child_spawn_opts(&p->child,
				  (char *[]){ p->perf, "record", "-q", "-e", p->event, "-g", "-C",
					      cpulist, "-D", "-1", "--control", ctlarg, "-o", data,
					      NULL },
				  &co);
	close(ctl[0]);
	close(ack[1]);
	close(co.err_fd);
	if (err) {
		close(ctl[1]);
		close(ack[0]);
		xl_err("profile: cannot start %s record: %s", p->perf, strerror(-err));
		return err;
	}
	p->ctl = ctl[1];
	p->ack = ack[0];
	fcntl(p->ack, F_SETFL, O_NONBLOCK);
	err = control(p, "enable");
	if (err) {
		reap(p, SIGKILL);
		keep_log(p, log, sizeof(log));
		xl_err("profile: perf record did not start (%s)%s%s", strerror(-err),
		       log[0] ? "; see " : "", log);
		return err;
	}
	return 0;

out_ctl:
	close(ctl[0]);
	close(ctl[1]);
out_log:
	close(co.err_fd);
	return err;
}

int xl_profiler__set_role(struct xl_profiler *p, int cpu, const char *role)
{
	int i;

	for (i = 0; i < p->ncpus; i++)
		if (p->cpus[i].cpu == cpu) {
			snprintf(p->cpus[i].role, sizeof(p->cpus[i].role), "%s", role);
			return 0;
		}
	return -ENOENT;
}

/*
 * Fold `perf script -i @data` into @f, its stderr to our perf.log; what
 * it read in *@ps; its wait status into *@status (-1: it had to be killed).
 */
static int fold_script(struct xl_profiler *p, const char *data, struct xl_folded *f,
		       struct xl_perf_script_stats *ps, int *status)
{
	char log[PATH_MAX + 16];
	struct xl_child_opts co = { .flags = XL_CHILD_STDOUT_PIPE };
	struct xl_child c;
	FILE *in;
	int err;

	*status = 0;
	tmp_path(p, "perf.log", log, sizeof(log));
	co.err_fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (co.err_fd < 0)
		return -errno;
	err = xl_child_spawn_opts(&c,
				  (char *[]){ p->perf, "script", "-F",
					      "comm,tid,cpu,period,ip,sym,dso", "-i", (char *)data,
					      NULL },
				  &co);
	close(co.err_fd);
	if (err)
		return err;
	in = fdopen(c.stdout_fd, "r");
	if (!in) {
		err = -errno;
		xl_child_stop(&c, SIGKILL, 1000);
		return err;
	}
	c.stdout_fd = -1; /* the stream's now */
	err = xl_folded__parse_perf_script(f, in, p->cpus, p->ncpus, ps);
	fclose(in);
	/* Read to its end: perf script has written all; an error (ENOMEM) ends it. */
	*status = xl_child_stop(&c, err ? SIGTERM : 0, err ? 1000 : 30000) == -ETIMEDOUT ? -1 :
										   c.status;
	return err;
}

/* Write @f's folded stacks or flame graph to @path by a temporary name. */
static int write_result(struct xl_profiler *p, struct xl_folded *f, const char *path, bool svg)
{
	struct xl_afile a;
	int err = xl_afile_open(&a, path, 0644);

	if (err)
		return err;
	err = svg ? xl_flame_svg(f, a.f, p->name, 1200) : xl_folded__write(f, a.f);
	if (err) {
		xl_afile_abort(&a);
		return err;
	}
	return xl_afile_commit(&a);
}

/*
 * perf @what's end, told by its wait status @st (-1: we had to kill it)
 * and for perf record by @ctl (the result of the "disable" command), in
 * @out->incomplete when it was not the end we asked for and nothing was
 * said before: perf record ends on our SIGINT by raising it again (exit 0
 * is fine too), perf script exits 0.
 */
static void perf_end(const char *what, int st, int ctl, struct xl_profile *out)
{
	bool rec = !strcmp(what, "record");
	char how[48];

	if (out->incomplete[0])
		return;
	if (st == -1)
		snprintf(out->incomplete, sizeof(out->incomplete),
			 "perf %s did not end within 30 s (killed)", what);
	else if (!(rec && WIFSIGNALED(st) && WTERMSIG(st) == SIGINT) && !(WIFEXITED(st) && !WEXITSTATUS(st)))
		snprintf(out->incomplete, sizeof(out->incomplete), "perf %s %s", what,
			 xl_wait_status_str(st, how, sizeof(how)));
	else if (ctl == -EPIPE)
		snprintf(out->incomplete, sizeof(out->incomplete),
			 "perf record ended before the window did");
	else if (ctl)
		snprintf(out->incomplete, sizeof(out->incomplete),
			 "perf record did not acknowledge the window's end (%s)", strerror(-ctl));
}

int xl_profiler__stop(struct xl_profiler *p, struct xl_profile *out)
{
	char data[PATH_MAX + 16], log[PATH_MAX + 16], label[32];
	struct xl_perf_script_stats ps = { 0 };
	struct xl_folded *f;
	int err, ctl, st, i;

	if (!p->child.pid)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	tmp_path(p, "perf.data", data, sizeof(data));
	ctl = control(p, "disable");
	/*
	 * perf ends its recording on SIGINT, writes the file out and ends by
	 * the same signal. Any other end (it died during the window, it
	 * failed writing) still leaves what it wrote: that is the profile,
	 * said to be incomplete.
	 */
	st = xl_child_stop(&p->child, SIGINT, 30000) == -ETIMEDOUT ? -1 : p->child.status;
	reap(p, 0);
	perf_end("record", st, ctl, out);
	f = xl_folded__new();
	if (!f) {
		unlink(data);
		return -ENOMEM;
	}
	err = fold_script(p, data, f, &ps, &st);
	unlink(data);
	keep_log(p, log, sizeof(log));
	if (err)
		goto out_free;
	perf_end("script", st, 0, out);
	out->unparsed = ps.unparsed;
	if (out->incomplete[0])
		xl_warn("profile: %s: incomplete: %s (the profile holds what perf wrote before)%s%s",
			p->name, out->incomplete, log[0] ? "; see " : "", log);
	if (ps.unparsed)
		xl_warn("profile: %s: %lu lines of perf script not parsed (the first: line %lu), skipped",
			p->name, ps.unparsed, ps.first_unparsed);
	out->samples = xl_folded__samples(f, NULL);
	snprintf(out->event, sizeof(out->event), "%s", p->event);
	memcpy(out->cpus, p->cpus, sizeof(out->cpus));
	out->ncpus = p->ncpus;
	for (i = 0; i < p->ncpus; i++) {
		xl_prof_cpu_label(&p->cpus[i], label, sizeof(label));
		out->ntop += xl_folded__top(f, label, out->top + out->ntop, XL_PROF_TOP);
	}
	path_of(p, "folded", out->folded, sizeof(out->folded));
	path_of(p, "svg", out->svg, sizeof(out->svg));
	err = write_result(p, f, out->folded, false);
	if (!err)
		err = write_result(p, f, out->svg, true);
out_free:
	if (err)
		xl_err("profile: writing %s's profile failed: %s", p->name, strerror(-err));
	xl_folded__free(f);
	return err;
}
