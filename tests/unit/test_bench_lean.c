// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_bench_lean.c - the benchmark program's lean path (bpf/bench.bpf.c,
 * rodata "lean" = 1 + the packet operation: what xl_bench__create() loads
 * when no option is on) counts exactly what the path with every option
 * honoured counts (lean 0), run with BPF_PROG_RUN on four frames of known
 * sizes (IPv4/UDP 64 and 1000 B, IPv6/UDP 200 B, a 60 B ARP frame):
 * rx_packets 4, rx_bytes 1324 (data_end - data summed), errors 1 for
 * parse-ip (the ARP frame is not IP) and 0 otherwise, actions[] 0 (the
 * program leaves it to xl_bench__read(): abi/bench.h), the verdict the
 * rodata action, swap-macs' output the input with the MACs swapped. And
 * the lean program is the shorter one after the verifier (its instruction
 * count, a structural check, not a timing).
 *
 * BPF_PROG_RUN needs root or CAP_BPF: skipped with that reason otherwise.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdplab/abi/bench.h"
#include "xdplab/pkt.h"
#include "bench.skel.h"
#include "bpf_run.h"

TEST_HAVE_BPF(bench)

#define NFRAMES 4
#define MAXLEN 1000

struct frames {
	uint8_t b[NFRAMES][MAXLEN];
	uint32_t len[NFRAMES];
	uint64_t bytes;
};

static void build(struct frames *f)
{
	static const uint32_t sizes[3] = { 64, 1000, 200 };
	struct xl_pkt_spec s = { .src_port = 1024, .dst_port = 9,
				 .src_mac = { 2, 0x58, 0x4c, 0, 0, 1 },
				 .dst_mac = { 2, 0x58, 0x4c, 0, 0, 2 } };
	int i, n;

	memset(f, 0, sizeof(*f));
	s.src_ip4.s_addr = htonl(0xc6120001);
	s.dst_ip4.s_addr = htonl(0xc6120002);
	inet_pton(AF_INET6, "2001:2::1", &s.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", &s.dst_ip6);
	for (i = 0; i < 3; i++) {
		s.size = sizes[i];
		s.ipv6 = i == 2;
		n = xl_pkt_build(&s, f->b[i], MAXLEN);
		assert_int_equal(n, (int)sizes[i]);
		f->len[i] = n;
	}
	/* ARP: not IP, so parse-ip counts an error; still the action. */
	memcpy(f->b[3], s.dst_mac, 6);
	memcpy(f->b[3] + 6, s.src_mac, 6);
	f->b[3][12] = 0x08;
	f->b[3][13] = 0x06;
	f->len[3] = 60;
	for (i = 0; i < NFRAMES; i++)
		f->bytes += f->len[i];
}

static struct bench *load(int op, bool lean)
{
	struct bench *b = bench__open();

	assert_non_null(b);
	b->rodata->action = XDP_TX;
	b->rodata->pkt_op = op;
	b->rodata->lean = lean ? 1 + op : 0;
	bpf_program__set_autoload(b->progs.tc_bench_drop, false);
	assert_int_equal(bench__load(b), 0);
	return b;
}

/* Every CPU's record summed (BPF_PROG_RUN runs on the calling CPU). */
static void read_sum(struct bench *b, struct xl_bench_rec *t)
{
	int n = libbpf_num_possible_cpus(), i, j;
	struct xl_bench_rec *r = calloc(n, sizeof(*r));
	__u32 key = 0;

	assert_non_null(r);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(b->maps.bench_stats), &key, r), 0);
	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		t->rx_packets += r[i].rx_packets;
		t->rx_bytes += r[i].rx_bytes;
		t->errors += r[i].errors;
		for (j = 0; j < XL_XDP_ACTIONS; j++)
			t->actions[j] += r[i].actions[j];
	}
	free(r);
}

static uint32_t xlated_len(struct bench *b)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	assert_int_equal(bpf_obj_get_info_by_fd(bpf_program__fd(b->progs.xdp_bench_action), &info,
						 &len), 0);
	return info.xlated_prog_len;
}

static void run_all(struct bench *b, const struct frames *f, int op)
{
	uint8_t out[MAXLEN + 256], want[MAXLEN];
	uint32_t out_len;
	int i;

	for (i = 0; i < NFRAMES; i++) {
		out_len = sizeof(out);
		assert_int_equal(prog_run(bpf_program__fd(b->progs.xdp_bench_action), f->b[i],
					  f->len[i], out, &out_len),
				 XDP_TX);
		assert_int_equal(out_len, f->len[i]);
		memcpy(want, f->b[i], f->len[i]);
		if (op == XL_OP_SWAP_MACS) {
			memcpy(want, f->b[i] + 6, 6);
			memcpy(want + 6, f->b[i], 6);
		}
		assert_memory_equal(out, want, f->len[i]);
	}
}

static void test_lean_counts(void **state)
{
	static struct frames f;
	int op, lean, j;

	if (!have_bpf) {
		print_message("needs BPF_PROG_RUN (root or CAP_BPF): skipped\n");
		skip();
	}
	build(&f);
	assert_int_equal(f.bytes, 1324);
	for (op = 0; op < XL_OP__COUNT; op++) {
		uint32_t xl[2];

		for (lean = 0; lean < 2; lean++) {
			struct bench *b = load(op, lean);
			struct xl_bench_rec t;

			run_all(b, &f, op);
			read_sum(b, &t);
			assert_int_equal(t.rx_packets, NFRAMES);
			assert_int_equal(t.rx_bytes, f.bytes);
			assert_int_equal(t.errors, op == XL_OP_PARSE_IP ? 1 : 0);
			for (j = 0; j < XL_XDP_ACTIONS; j++)
				assert_int_equal(t.actions[j], 0);
			xl[lean] = xlated_len(b);
			bench__destroy(b);
		}
		print_message("op %d: %u xlated 8-byte slots lean, %u with the options' knobs\n", op,
			      xl[1] / 8, xl[0] / 8);
		assert_true(xl[1] < xl[0]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lean_counts),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
