// SPDX-License-Identifier: BSD-2-Clause
/* BPF_PROG_RUN of an XDP program over one frame, and the empty program. */
#include <errno.h>
#include <string.h>
#include <linux/bpf.h>

#include <bpf/bpf.h>

#include "xdplab/progrun.h"

/* One BPF_PROG_RUN with @o; its verdict, time and output size into @r. */
static int test_run(int prog_fd, struct bpf_test_run_opts *o, struct xl_run_result *r)
{
	memset(r, 0, sizeof(*r));
	if (bpf_prog_test_run_opts(prog_fd, o))
		return -errno;
	r->action = (int)o->retval;
	r->duration_ns = o->duration;
	r->out_len = o->data_size_out;
	return 0;
}

int xl_prog_run_frame(int prog_fd, const void *frame, uint32_t len, uint32_t repeat,
		      void *out, uint32_t out_cap, struct xl_run_result *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame, .data_size_in = len,
		    .data_out = out, .data_size_out = out ? out_cap : 0,
		    .repeat = repeat ? repeat : 1);

	return test_run(prog_fd, &o, r);
}

int xl_prog_run_probe(int prog_fd, const void *frame, uint32_t len, void *out, uint32_t out_cap,
		      struct xl_run_result *r, bool *modified)
{
	/* The kernel wants data_end = the frame's size in and data 0 (no metadata). */
	struct xdp_md ctx = { .data_end = len };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame, .data_size_in = len, .data_out = out,
		    .data_size_out = out_cap, .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		    .ctx_out = &ctx, .ctx_size_out = sizeof(ctx), .repeat = 1);
	int err = test_run(prog_fd, &o, r);

	*modified = false;
	if (err)
		return err;
	r->linear_len = ctx.data_end > ctx.data ? ctx.data_end - ctx.data : 0;
	*modified = o.data_size_out != len || memcmp(out, frame, len);
	return 0;
}

int xl_prog_run_fresh(int prog_fd, int empty_fd, const void *frame, uint32_t len, uint32_t calls,
		      double *prog_ns, double *empty_ns, struct xl_run_result *r)
{
	struct xl_run_result e;
	uint64_t sum = 0, esum = 0;
	uint32_t i;
	int err;

	*prog_ns = *empty_ns = 0;
	if (!calls)
		calls = 1;
	for (i = 0; i < calls; i++) {
		err = xl_prog_run_frame(empty_fd, frame, len, 1, NULL, 0, &e);
		if (!err)
			err = xl_prog_run_frame(prog_fd, frame, len, 1, NULL, 0, r);
		if (err)
			return err;
		esum += e.duration_ns;
		sum += r->duration_ns;
	}
	*prog_ns = (double)sum / calls;
	*empty_ns = (double)esum / calls;
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
