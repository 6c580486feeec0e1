/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the unit tests that run BPF programs with BPF_PROG_RUN share:
 * TEST_HAVE_BPF(skel) defines have_bpf and a cmocka group setup() that
 * sets it when skeleton @skel opens and loads (root or CAP_BPF; the tests
 * skip with that reason when not root; as root a load failure, such as the
 * verifier rejecting the program, fails the group), and need_bpf(), which a
 * test calls first to skip with that reason; prog_run() runs a program once on a
 * frame. Include after <cmocka.h> and the skeleton's header.
 */
#ifndef XDPLAB_TEST_BPF_RUN_H
#define XDPLAB_TEST_BPF_RUN_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define TEST_HAVE_BPF(skel)                                   \
	static bool have_bpf;                                 \
                                                              \
	static int setup(void **state)                        \
	{                                                     \
		struct skel *s = skel##__open_and_load();     \
                                                              \
		have_bpf = s != NULL;                         \
		if (!s && geteuid() == 0) {                   \
			/* Root has the privilege: the      \
			 * program itself failed to load    \
			 * (the verifier): fail, not skip. */ \
			print_error("cannot load " #skel     \
				    ": %s\n", strerror(errno));\
			return -1;                            \
		}                                             \
		skel##__destroy(s);                           \
		return 0;                                     \
	}                                                     \
                                                              \
	static inline void need_bpf(void)                     \
	{                                                     \
		if (have_bpf)                                 \
			return;                               \
		print_message("needs BPF_PROG_RUN (root or "  \
			      "CAP_BPF): skipped\n");         \
		skip();                                       \
	}

/*
 * BPF_PROG_RUN of program @fd once on @in (@len bytes); @out gets the frame
 * after the program, *@out_len its room in bytes in, the frame's length out.
 * Return: the program's verdict (XDP_*), or -errno when the run failed.
 */
static inline int prog_run(int fd, const uint8_t *in, uint32_t len, uint8_t *out,
			   uint32_t *out_len)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in, .data_size_in = len, .data_out = out,
		    .data_size_out = *out_len, .repeat = 1);
	int err = bpf_prog_test_run_opts(fd, &o);

	*out_len = o.data_size_out;
	return err ? -errno : (int)o.retval;
}

#endif /* XDPLAB_TEST_BPF_RUN_H */
