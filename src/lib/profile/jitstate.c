// SPDX-License-Identifier: BSD-2-Clause
/* The record of a changed bpf_jit_kallsyms, for `xdplab cleanup` (jitstate.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "xdplab/atomicfile.h"
#include "xdplab/jitstate.h"
#include "xdplab/netns.h"
#include "xdplab/tmpdir.h"

#define JIT_KALLSYMS "/proc/sys/net/core/bpf_jit_kallsyms"
#define PREFIX "jit_kallsyms."

static void state_path(char *buf, size_t len, pid_t pid)
{
	snprintf(buf, len, "%s/%s%d", XL_RUN_STATE_DIR, PREFIX, (int)pid);
}

int xl_jit_state_save(int old)
{
	char path[PATH_MAX], buf[16];
	int n = snprintf(buf, sizeof(buf), "%d\n", old), err;

	err = xl_run_state_dir();
	if (err)
		return err;
	state_path(path, sizeof(path), getpid());
	/* By a temporary name renamed into place: a link planted at the name is replaced. */
	return xl_afile_write(path, buf, n, 0600);
}

void xl_jit_state_clear(void)
{
	char path[PATH_MAX];

	state_path(path, sizeof(path), getpid());
	unlink(path);
}

/* Write @v to bpf_jit_kallsyms, in the initial namespace if not in ours. */
static int write_jit(int v)
{
	struct xl_netns_saved saved;
	int fd = open(JIT_KALLSYMS, O_WRONLY | O_CLOEXEC), err = 0;
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%d\n", v);

	if (fd < 0 && errno == ENOENT && !xl_netns_enter_path("/proc/1/ns/net", &saved)) {
		fd = open(JIT_KALLSYMS, O_WRONLY | O_CLOEXEC);
		err = fd < 0 ? -errno : 0;
		xl_netns_restore(&saved);
	} else if (fd < 0) {
		err = -errno;
	}
	if (fd < 0)
		return err ? err : -ENOENT;
	err = write(fd, buf, n) == n ? 0 : -errno;
	close(fd);
	return err;
}

struct jit_sweep {
	void (*restored)(pid_t pid, int value, int written, void *ctx);
	void *ctx;
	int live; /* records of live runs: one of them restores the value */
};

/* Restore one dead run's record (xl_pid_records_sweep() @take). */
static int restore_one(const char *path, pid_t pid, void *ctx)
{
	struct jit_sweep *s = ctx;
	int v = -1, fd, err;
	FILE *f;

	/* The record itself: a link planted at its name is not read through. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f && fd >= 0)
		close(fd);
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	if (v >= 0 && !s->live) {
		err = write_jit(v);
		if (err)
			return err;
	}
	unlink(path);
	if (s->restored)
		s->restored(pid, v, v >= 0 && !s->live, s->ctx);
	return 0;
}

int xl_jit_state_sweep(void (*restored)(pid_t pid, int value, int written, void *ctx), void *ctx)
{
	struct jit_sweep s = { restored, ctx, 0 };
	int n;

	s.live = xl_pid_records_live(XL_RUN_STATE_DIR, PREFIX, '\0');
	if (s.live < 0)
		return s.live;
	n = xl_pid_records_sweep(XL_RUN_STATE_DIR, PREFIX, '\0', restore_one, NULL, &s);
	return n == -ENOENT ? 0 : n;
}
