// SPDX-License-Identifier: BSD-2-Clause
/* A BPF program's own time per run (xdplab/progtime.h). */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "xdplab/progtime.h"

/* The kernel's run time (ns) and run count of program @fd. Return: 0 or -errno. */
static int prog_stats(int fd, uint64_t *ns, uint64_t *cnt)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);
	int err = bpf_obj_get_info_by_fd(fd, &info, &len);

	if (err)
		return err < 0 ? err : -EIO;
	*ns = info.run_time_ns;
	*cnt = info.run_cnt;
	return 0;
}

void xl_prog_time_drop(struct xl_prog_time *t)
{
	if (t->stats_fd >= 0)
		close(t->stats_fd);
	t->stats_fd = -1;
}

int xl_prog_time_begin(struct xl_prog_time *t, int prog_fd)
{
	int err;

	t->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (t->stats_fd < 0) {
		err = t->stats_fd;
		t->stats_fd = -1;
		return err;
	}
	err = prog_stats(prog_fd, &t->ns0, &t->cnt0);
	if (err)
		xl_prog_time_drop(t);
	return err;
}

double xl_prog_time_end(struct xl_prog_time *t, int prog_fd)
{
	uint64_t ns, cnt;
	double v = 0;

	if (t->stats_fd < 0)
		return 0;
	if (!prog_stats(prog_fd, &ns, &cnt) && cnt > t->cnt0 && ns >= t->ns0)
		v = (double)(ns - t->ns0) / (double)(cnt - t->cnt0);
	xl_prog_time_drop(t);
	return v;
}
