// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_atomicfile.c - files written under a temporary name and renamed into
 * place (src/lib/core/atomicfile.c): a symbolic link planted at the final
 * name is replaced, its target untouched; nothing is at the final name
 * before the commit; an abort or a failed commit leaves no temporary file;
 * xl_open_excl() refuses an existing name and a link.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "xdplab/atomicfile.h"
#include "test_util.h"

static char base[PATH_MAX / 8];

static int setup(void **state)
{
	return tmp_dir_make(base, sizeof(base), "afile");
}

static int teardown(void **state)
{
	return tmp_dir_remove(base);
}

/* The whole content of @path into @buf (@len bytes), "" when unreadable. */
static const char *slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

/* Entries of @dir other than . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void test_planted_link_replaced(void **state)
{
	char dir[PATH_MAX / 4], target[PATH_MAX], out[PATH_MAX], buf[64];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s/link", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(target, sizeof(target), "%s/precious", base);
	snprintf(out, sizeof(out), "%s/out.svg", dir);
	assert_int_equal(xl_afile_write(target, "keep\n", 5, 0600), 0);
	assert_int_equal(symlink(target, out), 0);

	assert_int_equal(xl_afile_write(out, "new\n", 4, 0644), 0);
	assert_string_equal(slurp(target, buf, sizeof(buf)), "keep\n");
	assert_int_equal(lstat(out, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(slurp(out, buf, sizeof(buf)), "new\n");
	assert_int_equal(entries(dir), 1); /* no temporary file left */
}

static void test_open_commit_abort(void **state)
{
	char dir[PATH_MAX / 4], out[PATH_MAX], buf[64];
	struct xl_afile a;

	snprintf(dir, sizeof(dir), "%s/steps", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(out, sizeof(out), "%s/r.json", dir);
	assert_int_equal(xl_afile_open(&a, out, 0644), 0);
	assert_non_null(a.f);
	assert_int_equal(strncmp(a.tmp, dir, strlen(dir)), 0);
	snprintf(buf, sizeof(buf), "/.r.json.%d.", (int)getpid());
	assert_int_equal(strncmp(a.tmp + strlen(dir), buf, strlen(buf)), 0);
	assert_int_equal(strlen(a.tmp), strlen(dir) + strlen(buf) + 6);
	assert_true(fcntl(a.fd, F_GETFD) & FD_CLOEXEC);
	fputs("partial", a.f);
	assert_int_equal(access(out, F_OK), -1); /* nothing under the final name yet */
	xl_afile_abort(&a);
	assert_null(a.f);
	assert_int_equal(entries(dir), 0);
	xl_afile_abort(&a); /* closed: nothing to do */

	assert_int_equal(xl_afile_open(&a, out, 0644), 0);
	fputs("{}\n", a.f);
	assert_int_equal(xl_afile_commit(&a), 0);
	assert_string_equal(slurp(out, buf, sizeof(buf)), "{}\n");
	assert_int_equal(entries(dir), 1);
	assert_int_equal(xl_afile_commit(&a), -EBADF);

	/* A directory at the final name: the rename fails, no temporary file stays. */
	snprintf(out, sizeof(out), "%s/sub", dir);
	assert_int_equal(mkdir(out, 0700), 0);
	assert_int_equal(xl_afile_write(out, "x", 1, 0644), -EISDIR);
	assert_int_equal(entries(dir), 2);

	assert_int_equal(xl_afile_open(&a, "/nonexistent-xl/r.json", 0644), -ENOENT);
	assert_null(a.f);
	assert_int_equal(xl_afile_open(&a, "dir/", 0644), -EISDIR);
}

static void test_open_excl(void **state)
{
	char target[PATH_MAX], path[PATH_MAX], buf[64];
	int fd;

	snprintf(target, sizeof(target), "%s/excl-target", base);
	snprintf(path, sizeof(path), "%s/excl.log", base);
	assert_int_equal(xl_afile_write(target, "keep\n", 5, 0600), 0);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(xl_open_excl(path, O_WRONLY, 0600), -EEXIST);
	assert_string_equal(slurp(target, buf, sizeof(buf)), "keep\n");
	assert_int_equal(unlink(path), 0);
	fd = xl_open_excl(path, O_WRONLY, 0600);
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	assert_int_equal(xl_open_excl(path, O_WRONLY, 0600), -EEXIST);
}

/* A write the kernel refuses half-way (past RLIMIT_FSIZE: EFBIG): the
 * write's own errno, not -EIO, and the earlier file byte-for-byte. */
static void test_failed_write_keeps_old(void **state)
{
	char dir[PATH_MAX / 4], out[PATH_MAX], buf[64], big[8192];
	struct rlimit old, lim;
	struct xl_afile a;
	int i;

	snprintf(dir, sizeof(dir), "%s/fail", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(out, sizeof(out), "%s/r.json", dir);
	assert_int_equal(xl_afile_write(out, "old\n", 4, 0644), 0);
	memset(big, 'x', sizeof(big));
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	assert_int_equal(xl_afile_open(&a, out, 0644), 0);
	lim = (struct rlimit){ .rlim_cur = 4096, .rlim_max = old.rlim_max };
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < 4; i++)
		fwrite(big, 1, sizeof(big), a.f);
	assert_int_equal(a.err, -EFBIG);
	assert_int_equal(xl_afile_commit(&a), -EFBIG);
	assert_int_equal(xl_afile_write(out, big, sizeof(big), 0644), -EFBIG);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_string_equal(slurp(out, buf, sizeof(buf)), "old\n");
	assert_int_equal(entries(dir), 1);
}

/* A device is written, never replaced: /dev/full says ENOSPC. */
static void test_device_direct(void **state)
{
	char dir[PATH_MAX / 4], link[PATH_MAX], buf[16];
	struct xl_afile a;
	struct stat st;

	assert_int_equal(xl_afile_open(&a, "/dev/full", 0644), 0);
	assert_true(a.direct);
	fputs("data", a.f);
	assert_int_equal(xl_afile_commit(&a), -ENOSPC);
	assert_int_equal(xl_afile_write("/dev/null", "data", 4, 0644), 0);
	assert_int_equal(lstat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_int_equal(lstat("/dev/full", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	/* A link to a device at a path the user named is followed (as
	 * /dev/stdout), the link stays. */
	snprintf(dir, sizeof(dir), "%s/dev", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(link, sizeof(link), "%s/full", dir);
	assert_int_equal(symlink("/dev/full", link), 0);
	assert_int_equal(xl_afile_open_user(&a, link, 0644), 0);
	assert_true(a.direct);
	fputs("data", a.f);
	assert_int_equal(xl_afile_commit(&a), -ENOSPC);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(entries(dir), 1);
	/* At a name the tool makes up (xl_afile_open(), xl_afile_write()) a
	 * link planted there to a device is replaced, nothing written through. */
	assert_int_equal(xl_afile_open(&a, link, 0644), 0);
	assert_false(a.direct);
	xl_afile_abort(&a);
	assert_int_equal(xl_afile_write(link, "data", 4, 0644), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(slurp(link, buf, sizeof(buf)), "data");
	assert_int_equal(entries(dir), 1);
	/* A taken-over fd: the same error kept. */
	assert_int_equal(xl_afile_open_fd(&a, open("/dev/full", O_WRONLY | O_CLOEXEC), "-"), 0);
	assert_string_equal(a.path, "-");
	fputs("data", a.f);
	assert_int_equal(xl_afile_commit(&a), -ENOSPC);
}

/*
 * A FIFO at a name the tool makes up (another user's --profile-dir) with
 * no reader: xl_afile_write() returns -ENXIO at once, where the open
 * waited for a reader for ever (the alarm ends the test if it does).
 */
static void test_fifo_no_reader(void **state)
{
	char fifo[PATH_MAX];

	snprintf(fifo, sizeof(fifo), "%s/drop.svg", base);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	alarm(10);
	assert_int_equal(xl_afile_write(fifo, "data", 4, 0644), -ENXIO);
	alarm(0);
	unlink(fifo);
}

static char swept[PATH_MAX];
static int nswept;

static void on_swept(const char *tmp, pid_t pid, void *ctx)
{
	assert_int_equal(pid, *(pid_t *)ctx);
	snprintf(swept, sizeof(swept), "%s", tmp);
	nswept++;
}

/* The one entry of @dir whose name starts with @prefix into @buf, "" if none. */
static const char *entry_named(const char *dir, const char *prefix, char *buf, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	buf[0] = '\0';
	assert_non_null(d);
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			snprintf(buf, len, "%s/%s", dir, de->d_name);
	closedir(d);
	return buf;
}

/*
 * A writer SIGKILLed mid-write leaves DIR/.NAME.PID.XXXXXX and its record
 * in $TMPDIR; the sweep removes both (and the record of a dead PID naming
 * any other file removes nothing else), the earlier file stays whole, and
 * a live writer's temporary is kept.
 */
static void test_killed_writer_swept(void **state)
{
	char dir[PATH_MAX / 4], recs[PATH_MAX / 4], out[PATH_MAX], want[PATH_MAX], tmp[PATH_MAX], rec[PATH_MAX];
	char buf[64], target[PATH_MAX], *old = getenv("TMPDIR");
	struct xl_afile a, live;
	int sync[2];
	pid_t pid;
	FILE *f;

	old = old ? strdup(old) : NULL;
	snprintf(dir, sizeof(dir), "%s/killed", base);
	snprintf(recs, sizeof(recs), "%s/records", base);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(mkdir(recs, 0700), 0);
	setenv("TMPDIR", recs, 1);
	snprintf(out, sizeof(out), "%s/r.json", dir);
	assert_int_equal(xl_afile_write(out, "earlier\n", 8, 0644), 0);
	assert_int_equal(entries(recs), 0); /* a commit removes its record */
	assert_int_equal(pipe(sync), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (xl_afile_open(&a, out, 0644) || fputs("{\"half\": ", a.f) < 0 || fflush(a.f))
			_exit(1);
		write(sync[1], "x", 1);
		pause();
		_exit(0);
	}
	close(sync[1]);
	assert_int_equal(read(sync[0], buf, 1), 1);
	close(sync[0]);
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(waitpid(pid, NULL, 0), pid);
	snprintf(want, sizeof(want), ".r.json.%d.", (int)pid);
	assert_string_not_equal(entry_named(dir, want, tmp, sizeof(tmp)), "");
	assert_string_equal(slurp(tmp, buf, sizeof(buf)), "{\"half\": ");
	snprintf(want, sizeof(want), "xdplab-afile.%d.", (int)pid);
	assert_string_not_equal(entry_named(recs, want, rec, sizeof(rec)), "");
	/* A dead PID's record naming another file: only the record goes. */
	snprintf(target, sizeof(target), "%s/precious", dir);
	assert_int_equal(xl_afile_write(target, "keep\n", 5, 0644), 0);
	snprintf(want, sizeof(want), "%s/xdplab-afile.1073741000.abcdef", recs);
	f = fopen(want, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", target);
	fclose(f);
	/* A live writer's temporary (ours) is kept. */
	assert_int_equal(xl_afile_open(&live, out, 0644), 0);

	nswept = 0;
	assert_int_equal(xl_afile_sweep(on_swept, &pid), 1);
	assert_int_equal(nswept, 1);
	assert_string_equal(swept, tmp);
	assert_int_equal(access(tmp, F_OK), -1);
	assert_int_equal(access(rec, F_OK), -1);
	assert_int_equal(access(want, F_OK), -1);
	assert_string_equal(slurp(target, buf, sizeof(buf)), "keep\n");
	assert_string_equal(slurp(out, buf, sizeof(buf)), "earlier\n");
	assert_int_equal(access(live.tmp, F_OK), 0);
	assert_int_equal(entries(recs), 1); /* the live writer's record */
	xl_afile_abort(&live);
	assert_int_equal(entries(recs), 0);
	assert_int_equal(entries(dir), 2); /* r.json and precious */
	if (old) {
		setenv("TMPDIR", old, 1);
		free(old);
	} else {
		unsetenv("TMPDIR");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_planted_link_replaced),
		cmocka_unit_test(test_open_commit_abort),
		cmocka_unit_test(test_open_excl),
		cmocka_unit_test(test_failed_write_keeps_old),
		cmocka_unit_test(test_device_direct),
		cmocka_unit_test(test_fifo_no_reader),
		cmocka_unit_test(test_killed_writer_swept),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
