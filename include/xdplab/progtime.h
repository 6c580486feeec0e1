/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A BPF program's own time per run over a window, from the run time and
 * run count the kernel keeps of it while BPF_ENABLE_STATS is on
 * (bpf_prog_info.run_time_ns / run_cnt, as `bpftool prog show` prints
 * them). The kernel then reads the clock before and after every run of
 * every program (about 70 ns per run on this VM), so callers turn it on
 * only around a window they do not count otherwise (lab run --prog-time).
 */
#ifndef XDPLAB_PROGTIME_H
#define XDPLAB_PROGTIME_H

#include <stdint.h>

/**
 * struct xl_prog_time - one window of a program's run time.
 * @stats_fd: the BPF_ENABLE_STATS fd held over the window (-1: none).
 * @ns0/@cnt0: the program's run time (ns) and run count at the start.
 */
struct xl_prog_time {
	int stats_fd;
	uint64_t ns0, cnt0;
};

/** XL_PROG_TIME_INIT - a struct xl_prog_time holding nothing. */
#define XL_PROG_TIME_INIT { .stats_fd = -1 }

/**
 * xl_prog_time_begin() - turn the stats on and read @prog_fd's run time
 * and count into @t. Return: 0, or -errno (BPF_ENABLE_STATS refused:
 * -EPERM without CAP_SYS_ADMIN, -EINVAL on a kernel before 5.8; the info
 * read failed); on error @t holds nothing.
 */
int xl_prog_time_begin(struct xl_prog_time *t, int prog_fd);

/**
 * xl_prog_time_end() - read @prog_fd again and turn the stats off (the fd
 * closed; nothing when @t holds none). Return: ns per run over the window,
 * or 0 when the program did not run in it or a read failed.
 */
double xl_prog_time_end(struct xl_prog_time *t, int prog_fd);

/** xl_prog_time_drop() - turn the stats off without a figure (a failed window). */
void xl_prog_time_drop(struct xl_prog_time *t);

#endif /* XDPLAB_PROGTIME_H */
