/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file progrun.h
 * Running an XDP program over single frames with BPF_PROG_RUN (not live
 * frames: nothing is sent): the kernel's own duration per run, the action,
 * the frame it would send. As the kernel's XDP selftests and `bpftool prog
 * run` use the same syscall (BPF_PROG_TEST_RUN, kernel net/bpf/test_run.c).
 */
#ifndef XDPLAB_PROGRUN_H
#define XDPLAB_PROGRUN_H

#include <stdbool.h>
#include <stdint.h>

/**
 * struct xl_run_result - one BPF_PROG_RUN call.
 * @action: the program's return value (XDP action).
 * @duration_ns: the kernel's mean time per repetition in ns (an integer:
 *     the kernel divides the loop's time by the repeat count), which
 *     includes the loop's own overhead (see xl_empty_prog_load()).
 * @out_len: bytes of the frame after the program (what XDP_TX or
 *     XDP_REDIRECT would send).
 * @linear_len: xl_prog_run_probe() only (0 otherwise): the bytes of the
 *     frame in the linear buffer after the run, data_end - data of the
 *     context out; below @out_len the rest was in fragments.
 */
struct xl_run_result {
	int action;
	uint32_t duration_ns;
	uint32_t out_len;
	uint32_t linear_len;
};

/**
 * xl_prog_run_frame() - run XDP program @prog_fd over the @len-byte
 * @frame @repeat times (1..) in the kernel; @out (@out_cap bytes, may be
 * NULL) receives the frame after the last run.
 * Return: 0, -EINVAL (frame too short, 14 bytes at least, or longer than a
 * page's room for a program without xdp.frags), -EPERM, or another -errno.
 */
int xl_prog_run_frame(int prog_fd, const void *frame, uint32_t len, uint32_t repeat,
		      void *out, uint32_t out_cap, struct xl_run_result *r);

/**
 * xl_prog_run_probe() - one run (repeat 1) of @prog_fd over @frame (@len
 * bytes) with the XDP context in and out: @r's action, out_len and
 * linear_len; the frame after it into @out (@out_cap bytes). *@modified:
 * the program changed the frame (its bytes or its length). With --repeat
 * N the kernel runs the program N times over one buffer, each run on what
 * the last left (kernel net/bpf/test_run.c: the frame is copied in once
 * per call): a program that changes the frame must be timed with
 * xl_prog_run_fresh() to be timed on the frame it was given.
 * Return: as xl_prog_run_frame().
 */
int xl_prog_run_probe(int prog_fd, const void *frame, uint32_t len, void *out, uint32_t out_cap,
		      struct xl_run_result *r, bool *modified);

/**
 * xl_prog_run_fresh() - @calls (1..) pairs of BPF_PROG_RUN calls of one
 * run each over @frame: @empty_fd's (xl_empty_prog_load()), then
 * @prog_fd's, alternating so that both see the same state of the host.
 * Each call copies the frame in anew, so every run sees it as given.
 * *@prog_ns / *@empty_ns: the means of the kernel's durations (ns; each
 * one run's, the timer's own cost in it, which the empty program's
 * measures). @r: @prog_fd's last call (action, out_len).
 * Return: as xl_prog_run_frame() (the first error stops the calls).
 */
int xl_prog_run_fresh(int prog_fd, int empty_fd, const void *frame, uint32_t len, uint32_t calls,
		      double *prog_ns, double *empty_ns, struct xl_run_result *r);

/**
 * xl_empty_prog_load() - load an XDP program that only returns XDP_PASS
 * (two instructions), whose duration under xl_prog_run_frame() is the
 * repeat loop's own overhead, to subtract from a program's. @frags: load
 * it with BPF_F_XDP_HAS_FRAGS (as the program it is compared with).
 * Return: its fd (caller closes) or -errno.
 */
int xl_empty_prog_load(bool frags);

#endif /* XDPLAB_PROGRUN_H */
