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
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xdplab/child.h"
#include "xdplab/jitstate.h"
#include "xdplab/log.h"
#include "xdplab/netns.h"
#include "xdplab/profile.h"
#include "xdplab/time.h"

#define JIT_KALLSYMS "/proc/sys/net/core/bpf_jit_kallsyms"

struct xl_profiler {
	char dir[2048], perf[256];
	char name[64];
	int jit_kallsyms_old; /* -1: not changed */
	int jit_fd; /* bpf_jit_kallsyms, opened where it exists, to restore from any namespace */
	char event[16]; /* "cycles" or "cpu-clock" */
	pid_t pid;
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
	if (p->pid > 0) {
		kill(p->pid, sig);
		waitpid(p->pid, NULL, 0);
	}
	p->pid = 0;
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
	free(p);
}

static void path_of(const struct xl_profiler *p, const char *ext, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.%s", p->dir, p->name, ext);
}

int xl_profiler__start(struct xl_profiler *p, const struct xl_prof_cpu *cpus, int n,
		       const char *name)
{
	char cpulist[64] = "", data[PATH_MAX], log[PATH_MAX], ctlarg[32];
	int ctl[2], ack[2], i, err;

	if (p->pid || n <= 0 || n > XL_PROF_MAX_CPUS)
		return -EINVAL;
	memcpy(p->cpus, cpus, n * sizeof(*cpus));
	p->ncpus = n;
	snprintf(p->name, sizeof(p->name), "%s", name);
	for (i = 0; i < n; i++)
		snprintf(cpulist + strlen(cpulist), sizeof(cpulist) - strlen(cpulist), "%s%d",
			 i ? "," : "", cpus[i].cpu);
	path_of(p, "perf.data", data, sizeof(data));
	path_of(p, "perf.log", log, sizeof(log));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ctl))
		return -errno;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ack)) {
		err = -errno;
		close(ctl[0]);
		close(ctl[1]);
		return err;
	}
	p->pid = fork();
	if (p->pid < 0) {
		err = -errno;
		p->pid = 0;
		close(ctl[0]), close(ctl[1]), close(ack[0]), close(ack[1]);
		return err;
	}
	if (!p->pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		/* perf's ends of the pipes must survive exec: dup them without CLOEXEC. */
		int c = dup(ctl[0]), a = dup(ack[1]);

		/*
		 * Its own process group: a Ctrl-C meant for us must not end it
		 * early. If we die (SIGKILL), it gets SIGINT, writes its file
		 * and ends, instead of recording on forever.
		 */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGINT);
		if (getppid() == 1)
			_exit(127); /* we died before the line above */

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		snprintf(ctlarg, sizeof(ctlarg), "fd:%d,%d", c, a);
		execvp(p->perf, (char *[]){ p->perf, "record", "-q", "-e", p->event, "-g", "-C",
					    cpulist, "-D", "-1", "--control", ctlarg, "-o", data,
					    NULL });
		_exit(127);
	}
	close(ctl[0]);
	close(ack[1]);
	p->ctl = ctl[1];
	p->ack = ack[0];
	fcntl(p->ack, F_SETFL, O_NONBLOCK);
	err = control(p, "enable");
	if (err) {
		xl_err("profile: perf record did not start (%s); see %s", strerror(-err), log);
		reap(p, SIGKILL);
		return err;
	}
	return 0;
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

int xl_profiler__stop(struct xl_profiler *p, struct xl_profile *out)
{
	char data[PATH_MAX], log[PATH_MAX], cmd[PATH_MAX * 2 + 600], label[32];
	unsigned long bad = 0;
	struct xl_folded *f;
	FILE *in, *o;
	int err, st, i;

	if (!p->pid)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	path_of(p, "perf.data", data, sizeof(data));
	path_of(p, "perf.log", log, sizeof(log));
	err = control(p, "disable");
	/* perf ends its recording on SIGINT and writes the file out. */
	kill(p->pid, SIGINT);
	if (waitpid(p->pid, &st, 0) < 0)
		err = err ? err : -errno;
	p->pid = 0;
	reap(p, 0);
	if (err) {
		xl_err("profile: perf record failed (%s); see %s", strerror(-err), log);
		return err;
	}
	f = xl_folded__new();
	if (!f)
		return -ENOMEM;
	snprintf(cmd, sizeof(cmd), "'%s' script -F comm,tid,cpu,period,ip,sym,dso -i '%s' 2>>'%s'",
		 p->perf, data, log);
	in = popen(cmd, "r");
	if (!in) {
		err = -errno;
		goto out_free;
	}
	err = xl_folded__parse_perf_script(f, in, p->cpus, p->ncpus, &bad);
	st = pclose(in);
	if (err == -EBADMSG)
		xl_err("profile: cannot read perf script's output (line %lu)", bad);
	else if (!err && st)
		xl_warn("profile: perf script exited with status %d; see %s", st, log);
	if (err)
		goto out_free;
	unlink(data);
	{
		struct stat st_log;

		if (!stat(log, &st_log) && !st_log.st_size)
			unlink(log); /* perf said nothing: keep only what is worth reading */
	}
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
	o = fopen(out->folded, "w");
	if (!o) {
		err = -errno;
		goto out_free;
	}
	err = xl_folded__write(f, o);
	if (fclose(o) && !err)
		err = -EIO;
	if (err)
		goto out_free;
	o = fopen(out->svg, "w");
	if (!o) {
		err = -errno;
		goto out_free;
	}
	err = xl_flame_svg(f, o, p->name, 1200);
	if (fclose(o) && !err)
		err = -EIO;
out_free:
	if (err && err != -EBADMSG)
		xl_err("profile: writing %s's profile failed: %s", p->name, strerror(-err));
	xl_folded__free(f);
	return err;
}
