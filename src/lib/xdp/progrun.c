// SPDX-License-Identifier: BSD-2-Clause
/* BPF_PROG_RUN of an XDP program over one frame, and the empty program. */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include <bpf/bpf.h>

#include "xdplab/progrun.h"

int xl_prog_run_frame(int prog_fd, const void *frame, uint32_t len, uint32_t repeat,
		      void *out, uint32_t out_cap, struct xl_run_result *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame, .data_size_in = len,
		    .data_out = out, .data_size_out = out ? out_cap : 0,
		    .repeat = repeat ? repeat : 1);

	memset(r, 0, sizeof(*r));
	if (bpf_prog_test_run_opts(prog_fd, &o))
		return -errno;
	r->action = (int)o.retval;
	r->duration_ns = o.duration;
	r->out_len = o.data_size_out;
	return 0;
}

int xl_empty_prog_load(bool frags)
{
	/* r0 = XDP_PASS; exit */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .prog_flags = frags ? BPF_F_XDP_HAS_FRAGS : 0);
	int fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "xl_empty", "GPL", insns, 2, &o);

	return fd < 0 ? -errno : fd;
}
