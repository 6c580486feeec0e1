// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_latency_prog.c - the stamping and the latency receiver, run with
 * BPF_PROG_RUN (root or CAP_BPF; skipped with that reason without it):
 * gen.bpf.c with --stamp writes the pktgen header (magic, seq 0, 1, 2 ...,
 * CLOCK_MONOTONIC time) with a valid UDP checksum (IPv4 and IPv6, one and
 * 16 flows, two VLAN tags with a fill byte, IPv6 extension headers,
 * checked by the user-space parser), and the flow rewrite of TCP in a VLAN tag keeps its checksum;
 * latency.bpf.c counts those
 * frames, and its sequence books give exactly the loss, reordering and
 * duplicates of a crafted order (0 1 2 5 4 4 6 -> lost 1, reordered 1,
 * duplicates 1).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "gen.skel.h"
#include "latency.skel.h"
#include "xdplab/gen.h"
#include "xdplab/abi/gen.h"
#include "xdplab/labrun_lat.h"
#include "xdplab/latency.h"
#include "xdplab/pkt.h"
#include "xdplab/time.h"

#include "bpf_run.h"

TEST_HAVE_BPF(latency)

static struct xl_pkt_spec spec_of(bool ipv6, uint32_t size)
{
	struct xl_pkt_spec s = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
				 .ipv6 = ipv6, .src_port = 1024, .dst_port = 9, .size = size };

	inet_pton(AF_INET, "198.18.0.1", &s.src_ip4);
	inet_pton(AF_INET, "198.18.0.2", &s.dst_ip4);
	inet_pton(AF_INET6, "2001:2::1", &s.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", &s.dst_ip6);
	return s;
}

/* The generator program on @flows flows (with --stamp if @stamp), as gen_engine.c sets it up. */
static struct gen *gen_load(const struct xl_pkt_spec *sp, const uint8_t *frame, uint32_t flows,
			    bool stamp)
{
	struct gen *g = gen__open();
	struct xl_pkt_layout lo;
	uint32_t i;

	assert_non_null(g);
	xl_pkt_layout(sp, &lo);
	g->rodata->ifindex_out = 1;
	g->rodata->nr_flows = flows;
	g->rodata->sport_off = lo.l4_off;
	g->rodata->csum_off = lo.l4_csum_off;
	g->rodata->stamp = stamp;
	g->rodata->stamp_off = lo.payload_off;
	memcpy((void *)g->rodata->stamp_tmpl, frame + lo.payload_off, sizeof(g->rodata->stamp_tmpl));
	memcpy((void *)&g->rodata->tmpl_csum, frame + lo.l4_csum_off, 2);
	assert_int_equal(gen__load(g), 0);
	for (i = 0; flows > 1 && i < flows; i++) {
		struct xl_gen_flow f;

		assert_int_equal(xl_gen_flow_make(sp, i, 0, 0, &f), 0);

		assert_int_equal(bpf_map_update_elem(bpf_map__fd(g->maps.flows), &i, &f, 0), 0);
	}
	return g;
}

/* @shape: 0 plain, 1 two VLAN tags (802.1ad outside) and --fill 0xab,
 * 2 TCP established in one VLAN tag without a stamp (the flow rewrite),
 * 3 (IPv6) the four extension headers of gen --ipv6-ext before UDP. */
static void stamp_case_shape(bool ipv6, uint32_t size, uint32_t flows, int shape)
{
	struct xl_pkt_spec sp = spec_of(ipv6, size);
	uint8_t frame[1514], out[1514 + 256];
	uint32_t off, out_len, i;
	struct xl_pkt_layout lo;
	bool do_stamp = shape != 2;
	struct gen *g;

	if (shape == 1) {
		sp.nvlans = 2;
		sp.qinq = true;
		sp.vlan_id[0] = 300;
		sp.vlan_id[1] = 100;
		sp.fill_set = true;
		sp.fill = 0xab;
	} else if (shape == 2) {
		sp.nvlans = 1;
		sp.vlan_id[0] = 100;
		sp.l4 = XL_L4_TCP_EST;
	} else if (shape == 3) {
		sp.n_ext = xl_pkt_ext_parse("hbh,dst,rt,frag", sp.ip6_ext);
	}
	xl_pkt_layout(&sp, &lo);
	off = lo.payload_off;
	assert_int_equal(xl_pkt_build(&sp, frame, sizeof(frame)), (int)size);
	g = gen_load(&sp, frame, flows, do_stamp);
	for (i = 0; i < 20; i++) {
		/* A copy: the stamp sits at an odd offset of the frame (UBSan). */
		struct xl_stamp stamp, *st = &stamp;
		struct xl_pkt_info info;
		uint64_t t, now;

		out_len = sizeof(out);
		assert_int_equal(prog_run(bpf_program__fd(g->progs.xdp_gen_redirect), frame, size,
					  out, &out_len),
				 XDP_REDIRECT);
		now = xl_now_ns();
		assert_int_equal(out_len, size);
		if (!do_stamp) {
			assert_int_equal(xl_pkt_parse(out, out_len, &info), 0);
			assert_int_equal(info.src_port, sp.src_port + (flows > 1 ? i % flows : 0));
			assert_true(info.l4_csum_ok);
			continue;
		}
		memcpy(&stamp, out + off, sizeof(stamp));
		assert_int_equal(ntohl(st->magic), XL_STAMP_MAGIC);
		assert_int_equal(ntohl(st->seq), i);
		assert_true(ntohl(st->tv_usec) < 1000000);
		assert_true(ntohs(st->nsec) < 1000);
		assert_int_equal(st->zero, 0);
		t = ntohl(st->tv_sec) * 1000000000ull + ntohl(st->tv_usec) * 1000ull + ntohs(st->nsec);
		assert_true(t <= now && now - t < 1000000000ull);
		assert_int_equal(xl_pkt_parse(out, out_len, &info), 0);
		assert_int_equal(info.src_port, sp.src_port + (flows > 1 ? i % flows : 0));
		assert_true(info.l4_csum_ok);
		/* Bytes after the stamp are the builder's pattern, untouched. */
		assert_memory_equal(out + off + XL_STAMP_LEN, frame + off + XL_STAMP_LEN,
				    size - off - XL_STAMP_LEN);
	}
	gen__destroy(g);
}

static void stamp_case(bool ipv6, uint32_t size, uint32_t flows)
{
	stamp_case_shape(ipv6, size, flows, 0);
}

static void test_stamp(void **state)
{
	(void)state;
	need_bpf();
	stamp_case(false, 62, 1);
	stamp_case(false, 64, 16);
	stamp_case(false, 1500, 1);
	stamp_case(true, 82, 1);
	stamp_case(true, 1500, 16);
	stamp_case_shape(false, 70, 16, 1);
	stamp_case_shape(true, 1500, 1, 1);
	stamp_case_shape(false, 100, 16, 2);
	stamp_case_shape(true, 1500, 16, 2);
	stamp_case_shape(true, 114, 16, 3);
}

/* One frame with sequence number @seq stamped at time @t (CLOCK_MONOTONIC ns). */
static void run_stamp(struct latency *l, uint8_t *frame, uint32_t size, uint32_t seq, uint64_t t)
{
	/* Built in a copy: offset 42 of the frame is not 4-byte aligned (UBSan). */
	struct xl_stamp stamp, *st = &stamp;
	uint8_t out[256];
	uint32_t out_len = sizeof(out);

	st->magic = htonl(XL_STAMP_MAGIC);
	st->seq = htonl(seq);
	st->tv_sec = htonl(t / 1000000000ull);
	st->tv_usec = htonl(t % 1000000000ull / 1000);
	st->nsec = htons(t % 1000);
	memcpy(&stamp.zero, frame + 42 + offsetof(struct xl_stamp, zero), sizeof(stamp.zero));
	memcpy(frame + 42, &stamp, sizeof(stamp));
	assert_int_equal(prog_run(bpf_program__fd(l->progs.xdp_latency), frame, size, out,
				  &out_len),
			 XDP_DROP);
}

/* One stamped frame with sequence number @seq, stamped now. */
static void run_seq(struct latency *l, uint8_t *frame, uint32_t size, uint32_t seq)
{
	run_stamp(l, frame, size, seq, xl_now_ns());
}

/*
 * A fresh receiver fed 64-byte IPv4 frames stamped with the @count
 * sequence numbers of @order, then one frame without a stamp when
 * @plain. Returns its per-CPU records (*@ncpu of them, the possible CPUs;
 * the caller frees them).
 */
static struct xl_lat_rec *receive(const uint32_t *order, int count, bool plain, int *ncpu)
{
	struct xl_pkt_spec sp = spec_of(false, 64);
	struct xl_lat_rec *recs;
	struct latency *l;
	uint8_t frame[64];
	__u32 key = 0;
	int i;

	*ncpu = libbpf_num_possible_cpus();
	assert_int_equal(xl_pkt_build(&sp, frame, sizeof(frame)), 64);
	l = latency__open_and_load();
	assert_non_null(l);
	for (i = 0; i < count; i++)
		run_seq(l, frame, 64, order[i]);
	if (plain) {
		uint8_t out[256];
		uint32_t out_len = sizeof(out);

		assert_int_equal(xl_pkt_build(&sp, frame, sizeof(frame)), 64);
		assert_int_equal(prog_run(bpf_program__fd(l->progs.xdp_latency), frame, 64, out,
					  &out_len),
				 XDP_DROP);
	}
	recs = calloc(*ncpu, sizeof(*recs));
	assert_non_null(recs);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(l->maps.lat_stats), &key, recs), 0);
	latency__destroy(l);
	return recs;
}

static void test_receiver_books(void **state)
{
	static const uint32_t order[] = { 0, 1, 2, 5, 4, 4, 6 };
	uint64_t stamped = 0, frames = 0, reo = 0, dup = 0, smin = ~0ull, smax = 0, hist = 0;
	struct xl_lat_rec *recs;
	int n, i;

	(void)state;
	need_bpf();
	/* The frame with no stamp (the 8th) is counted, not timed. */
	recs = receive(order, 7, true, &n);
	for (i = 0; i < n; i++) {
		int j;

		frames += recs[i].frames;
		stamped += recs[i].stamped;
		reo += recs[i].reordered;
		dup += recs[i].duplicates;
		for (j = 0; j < XL_LAT_BUCKETS; j++)
			hist += recs[i].hist[j];
		if (recs[i].stamped) {
			smin = recs[i].seq_min < smin ? recs[i].seq_min : smin;
			smax = recs[i].seq_max > smax ? recs[i].seq_max : smax;
		}
	}
	assert_int_equal(frames, 8);
	assert_int_equal(stamped, 7);
	assert_int_equal(hist, 7);
	assert_int_equal(reo, 1);
	assert_int_equal(dup, 1);
	assert_int_equal(smin, 0);
	assert_int_equal(smax, 6);
	/* lost = (6 - 0 + 1) - (7 - 1) = 1: seq 3 */
	assert_int_equal((smax - smin + 1) - (stamped - dup), 1);
	free(recs);
}

/*
 * A crafted sequence through the receiver, as a lab run --latency
 * repetition reads it: the sender sent 0..9; 4 was lost in the middle and
 * 9 at the tail, 2 came twice, 2 and 6 came after a higher number. The
 * receiver alone sees 1 gap (4: it cannot know of 9); against the sender's
 * 10, 2 are lost. Exact counts, through xl_lat_sum() and xl_lat_rep_from().
 */
static void test_receiver_crafted_rep(void **state)
{
	static const uint32_t order[] = { 0, 1, 3, 2, 2, 5, 7, 6, 8 };
	struct xl_lat_totals *t;
	struct xl_lat_rec *recs;
	struct xl_lat_rep r;
	uint64_t in_buckets = 0;
	int n, i;

	(void)state;
	need_bpf();
	recs = receive(order, 9, false, &n);
	t = calloc(1, sizeof(*t));
	assert_non_null(t);
	xl_lat_sum(recs, n, t);
	assert_int_equal(t->frames, 9);
	assert_int_equal(t->stamped, 9);
	assert_int_equal(t->seq_first, 0);
	assert_int_equal(t->seq_last, 8);
	assert_int_equal(t->expected, 9);
	assert_int_equal(t->duplicates, 1);
	assert_int_equal(t->reordered, 2);
	assert_int_equal(t->lost, 1);
	for (i = 0; i < XL_LAT_BUCKETS; i++)
		in_buckets += t->hist[i];
	assert_int_equal(in_buckets, 9);
	xl_lat_rep_from(t, 10, 0, &r);
	assert_int_equal(r.sent, 10);
	assert_int_equal(r.received, 9);
	assert_int_equal(r.lost, 2); /* 4 and 9 */
	assert_int_equal(r.gaps, 1); /* 4 */
	assert_int_equal(r.reordered, 2);
	assert_int_equal(r.duplicates, 1);
	assert_true(r.min_ns <= r.p50_ns && r.p50_ns <= r.p99_ns && r.p999_ns <= r.max_ns);
	assert_int_equal(r.max_ns, t->max_ns);
	free(t);
	free(recs);
}

/*
 * Stamps the receiver cannot time (issue 21 item 9): 3 stamped 10 s in
 * the future (another clock: a negative delta), 1 of time 0 (unset) and 1
 * stamped now. Only the one of now is timed: in the histogram, sum,
 * min/max and percentiles; the others are counted apart (they used to go
 * to bucket 0, so p50 read 0 ns, and time 0 gave the uptime as max).
 * The sequence books take all five.
 */
static void test_receiver_untimed(void **state)
{
	struct xl_pkt_spec sp = spec_of(false, 64);
	struct xl_lat_totals *t;
	struct xl_lat_rec *recs;
	struct xl_lat_rep r;
	uint64_t in_buckets = 0;
	struct latency *l;
	uint8_t frame[64];
	char note[192];
	__u32 key = 0;
	int n, i;

	(void)state;
	need_bpf();
	n = libbpf_num_possible_cpus();
	assert_int_equal(xl_pkt_build(&sp, frame, sizeof(frame)), 64);
	l = latency__open_and_load();
	assert_non_null(l);
	for (i = 0; i < 3; i++)
		run_stamp(l, frame, 64, i, xl_now_ns() + 10000000000ull);
	run_stamp(l, frame, 64, 3, 0);
	run_seq(l, frame, 64, 4);
	recs = calloc(n, sizeof(*recs));
	t = calloc(1, sizeof(*t));
	assert_non_null(recs);
	assert_non_null(t);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(l->maps.lat_stats), &key, recs), 0);
	latency__destroy(l);
	xl_lat_sum(recs, n, t);
	assert_int_equal(t->frames, 5);
	assert_int_equal(t->stamped, 5);
	assert_int_equal(t->negative, 3);
	assert_int_equal(t->unset, 1);
	assert_int_equal(t->timed, 1);
	for (i = 0; i < XL_LAT_BUCKETS; i++)
		in_buckets += t->hist[i];
	assert_int_equal(in_buckets, 1);
	assert_true(t->min_ns > 0 && t->min_ns == t->max_ns && t->sum_ns == t->min_ns);
	assert_true(t->max_ns < 1000000000ull);
	assert_int_equal(t->seq_first, 0);
	assert_int_equal(t->seq_last, 4);
	assert_int_equal(t->lost, 0);
	assert_int_equal(t->reordered, 0);
	xl_lat_rep_from(t, 5, 0, &r);
	assert_int_equal(r.received, 5);
	assert_int_equal(r.negative, 3);
	assert_int_equal(r.unset, 1);
	assert_int_equal(r.lost, 0);
	assert_int_equal(r.min_ns, t->min_ns);
	assert_int_equal(r.max_ns, t->max_ns);
	assert_true(r.p50_ns >= r.min_ns && r.p50_ns == r.p999_ns && r.p999_ns == r.max_ns);
	assert_true(r.mean_ns == (double)t->min_ns);
	assert_string_equal(xl_lat_notes(t, note, sizeof(note)),
			    "3 stamps from another clock (negative delta), not in the percentiles; "
			    "1 stamps of time 0 (unset), not in the percentiles");
	free(t);
	free(recs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stamp),
		cmocka_unit_test(test_receiver_books),
		cmocka_unit_test(test_receiver_crafted_rep),
		cmocka_unit_test(test_receiver_untimed),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
