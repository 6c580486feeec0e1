// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_steer.c - redirect-cpu's steering policies (bpf/redirect.bpf.c,
 * xdp_redir_cpumap) run with BPF_PROG_RUN over built frames, targets CPU 0
 * and CPU 1 (the lab has 2 CPUs): for every shape of IPv4/IPv6 x UDP/TCP x
 * {0, 1, 2 VLAN tags}, and IPv6 with Hop-by-Hop + Destination Options or an
 * atomic Fragment header before L4:
 *  - l4-sport over 100 source ports: exactly 50 frames to each CPU;
 *  - l4-dport (port 9): all to the 2nd CPU; l4-proto: TCP 1st, UDP 2nd;
 *  - l4-hash over 1000 flows: each CPU within 50% +- 5 points (the hash is
 *    deterministic, so this cannot flake: 3 sigma of a fair split is 4.7);
 *  - round-robin: 1001 frames give 501 and 500 exactly;
 * and nothing counted as unparsed. Then the misses: a truncated frame is
 * malformed, ARP is not-ip, ICMP has no ports, an IPv6 extension chain
 * (built by gen's --ipv6-ext builder) with Hop-by-Hop second or a header
 * longer than the payload is malformed and a non-first fragment has no
 * ports (each still goes to the 1st CPU, counted), and l4-filter drops UDP
 * to port 9 and counts it.
 * Needs root (BPF_PROG_RUN and cpumap entries).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "redirect.skel.h"
#include "xdplab/abi/redirect.h"
#include "xdplab/pkt.h"

enum ext { EXT_NONE, EXT_HBH_DST, EXT_FRAG };

struct rig {
	struct redirect *s;
	int fd, ncpus;
};

static void rig_load(struct rig *g, enum xl_steer steer)
{
	struct bpf_cpumap_val v = { .qsize = 64 };
	__u32 k;

	g->ncpus = libbpf_num_possible_cpus();
	assert_true(g->ncpus >= 2);
	g->s = redirect__open();
	assert_non_null(g->s);
	g->s->rodata->steer = steer;
	g->s->rodata->steer_count = 2;
	g->s->rodata->steer_cpus[0] = 0;
	g->s->rodata->steer_cpus[1] = 1;
	bpf_map__set_max_entries(g->s->maps.cpu_map, g->ncpus);
	bpf_map__set_max_entries(g->s->maps.steer_stats, g->ncpus);
	bpf_program__set_autoload(g->s->progs.xdp_redir_devmap, false);
	bpf_program__set_autoload(g->s->progs.xdp_redir_multi, false);
	bpf_program__set_autoload(g->s->progs.xdp_redir_cpu_prog, false);
	bpf_program__set_autoload(g->s->progs.xdp_redir_enqueue_tp, false);
	bpf_program__set_autoload(g->s->progs.xdp_redir_kthread_tp, false);
	assert_int_equal(redirect__load(g->s), 0);
	for (k = 0; k < 2; k++)
		assert_int_equal(bpf_map_update_elem(bpf_map__fd(g->s->maps.cpu_map), &k, &v, 0), 0);
	g->fd = bpf_program__fd(g->s->progs.xdp_redir_cpumap);
}

static int run(struct rig *g, const uint8_t *f, uint32_t len)
{
	uint8_t out[256];
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = f, .data_size_in = len, .data_out = out,
		    .data_size_out = sizeof(out), .repeat = 1);

	assert_int_equal(bpf_prog_test_run_opts(g->fd, &o), 0);
	return (int)o.retval;
}

/* Frames steered to target CPU @cpu, summed over the CPUs that ran them. */
static uint64_t steered(struct rig *g, __u32 cpu)
{
	struct xl_steer_rec r[g->ncpus];
	uint64_t n = 0;
	int i;

	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(g->s->maps.steer_stats), &cpu, r), 0);
	for (i = 0; i < g->ncpus; i++)
		n += r[i].steered;
	return n;
}

static struct xl_steer_miss misses(struct rig *g)
{
	struct xl_steer_miss m[g->ncpus], t = { 0 };
	__u32 k = 0;
	int i;

	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(g->s->maps.steer_miss), &k, m), 0);
	for (i = 0; i < g->ncpus; i++) {
		t.not_ip += m[i].not_ip;
		t.malformed += m[i].malformed;
		t.no_ports += m[i].no_ports;
		t.filtered += m[i].filtered;
		t.redirect_errors += m[i].redirect_errors;
	}
	return t;
}

/* Every miss counter of @g, summed over the CPUs, exactly (no redirect errors). */
static void assert_misses(struct rig *g, uint64_t not_ip, uint64_t malformed, uint64_t no_ports,
			  uint64_t filtered)
{
	struct xl_steer_miss m = misses(g);

	assert_int_equal(m.not_ip, not_ip);
	assert_int_equal(m.malformed, malformed);
	assert_int_equal(m.no_ports, no_ports);
	assert_int_equal(m.filtered, filtered);
	assert_int_equal(m.redirect_errors, 0);
}

static void assert_no_miss(struct rig *g)
{
	assert_misses(g, 0, 0, 0, 0);
}

/* The frames @g steered to its 1st and 2nd CPU, exactly. */
static void assert_steered(struct rig *g, uint64_t first, uint64_t second)
{
	assert_int_equal(steered(g, 0), first);
	assert_int_equal(steered(g, 1), second);
}

/*
 * Build one frame of the shape into @b (returns its length): the builder's
 * frame, and for @ext an IPv6 extension chain inserted before L4 (next
 * headers and payload length fixed; L4 checksums are not looked at here).
 */
static uint32_t frame(uint8_t *b, bool v6, bool tcp, int tags, enum ext ext, uint16_t sport,
		      uint16_t dport)
{
	struct xl_pkt_spec s = { .src_mac = { 2, 0, 0, 0, 0, 1 }, .dst_mac = { 2, 0, 0, 0, 0, 2 },
				 .ipv6 = v6, .src_port = sport, .dst_port = dport, .size = 96,
				 .nvlans = tags, .vlan_id = { 100, 200 },
				 .l4 = tcp ? XL_L4_TCP_SYN : XL_L4_UDP };
	struct xl_pkt_layout lo;
	uint32_t len = s.size, add;
	uint8_t l4p;
	uint16_t plen;

	inet_pton(AF_INET, "198.18.0.1", &s.src_ip4);
	inet_pton(AF_INET, "198.18.0.2", &s.dst_ip4);
	inet_pton(AF_INET6, "2001:2::1", &s.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", &s.dst_ip6);
	assert_int_equal(xl_pkt_build(&s, b, 256), (int)len);
	if (!v6 || ext == EXT_NONE)
		return len;
	xl_pkt_layout(&s, &lo);
	add = ext == EXT_HBH_DST ? 24 : 8;
	memmove(b + lo.l4_off + add, b + lo.l4_off, len - lo.l4_off);
	l4p = b[lo.l3_off + 6];
	memset(b + lo.l4_off, 0, add);
	if (ext == EXT_HBH_DST) {
		b[lo.l3_off + 6] = 0;     /* Hop-by-Hop, 8 bytes */
		b[lo.l4_off] = 60;        /* then Destination Options, 16 bytes */
		b[lo.l4_off + 8] = l4p;
		b[lo.l4_off + 9] = 1;
	} else {
		b[lo.l3_off + 6] = 44;    /* Fragment: offset 0, M = 0 (atomic) */
		b[lo.l4_off] = l4p;
	}
	plen = (uint16_t)(b[lo.l3_off + 4] << 8 | b[lo.l3_off + 5]) + add;
	b[lo.l3_off + 4] = plen >> 8;
	b[lo.l3_off + 5] = plen & 0xff;
	return len + add;
}

struct shape {
	bool v6, tcp;
	int tags;
	enum ext ext;
};

static int shapes(struct shape *sh)
{
	int n = 0, v6, tcp, tags, ext;

	for (v6 = 0; v6 < 2; v6++)
		for (tcp = 0; tcp < 2; tcp++)
			for (tags = 0; tags < 3; tags++)
				for (ext = EXT_NONE; ext <= (v6 ? EXT_FRAG : EXT_NONE); ext++)
					sh[n++] = (struct shape){ v6, tcp, tags, ext };
	return n;
}

static void test_matrix(void **state)
{
	struct shape sh[64];
	uint8_t b[256];
	int n = shapes(sh), i, p;

	(void)state;
	assert_int_equal(n, 24); /* 12 plain shapes and 12 IPv6 with extension headers */
	for (i = 0; i < n; i++) {
		struct rig sp, dp, pr, h;
		uint64_t h0;

		rig_load(&sp, XL_STEER_L4_SPORT);
		rig_load(&dp, XL_STEER_L4_DPORT);
		rig_load(&pr, XL_STEER_L4_PROTO);
		rig_load(&h, XL_STEER_L4_HASH);
		for (p = 0; p < 1000; p++) {
			uint32_t len = frame(b, sh[i].v6, sh[i].tcp, sh[i].tags, sh[i].ext, 1024 + p, 9);

			if (p < 100) {
				assert_int_equal(run(&sp, b, len), XDP_REDIRECT);
				assert_int_equal(run(&dp, b, len), XDP_REDIRECT);
				assert_int_equal(run(&pr, b, len), XDP_REDIRECT);
			}
			assert_int_equal(run(&h, b, len), XDP_REDIRECT);
		}
		print_message("shape v%d %s tags %d ext %d: l4-hash %llu / %llu\n",
			      sh[i].v6 ? 6 : 4, sh[i].tcp ? "tcp" : "udp", sh[i].tags, sh[i].ext,
			      (unsigned long long)steered(&h, 0), (unsigned long long)steered(&h, 1));
		assert_steered(&sp, 50, 50);
		assert_steered(&dp, 0, 100);
		assert_steered(&pr, sh[i].tcp ? 100 : 0, sh[i].tcp ? 0 : 100);
		h0 = steered(&h, 0);
		assert_int_equal(h0 + steered(&h, 1), 1000);
		assert_in_range(h0, 450, 550);
		assert_no_miss(&sp);
		assert_no_miss(&dp);
		assert_no_miss(&pr);
		assert_no_miss(&h);
		redirect__destroy(sp.s);
		redirect__destroy(dp.s);
		redirect__destroy(pr.s);
		redirect__destroy(h.s);
	}
}

static void test_round_robin(void **state)
{
	struct rig g;
	uint8_t b[256];
	uint32_t len = frame(b, false, false, 0, EXT_NONE, 1024, 9);
	int i;

	(void)state;
	rig_load(&g, XL_STEER_ROUND_ROBIN);
	for (i = 0; i < 1001; i++)
		assert_int_equal(run(&g, b, len), XDP_REDIRECT);
	assert_steered(&g, 501, 500);
	assert_no_miss(&g);
	redirect__destroy(g.s);
}

static void test_misses(void **state)
{
	struct rig g, f;
	uint8_t b[256];
	uint32_t len;

	(void)state;
	rig_load(&g, XL_STEER_L4_SPORT);
	/* Truncated inside the IPv4 header: malformed, to the 1st CPU. */
	frame(b, false, false, 1, EXT_NONE, 1025, 9);
	assert_int_equal(run(&g, b, 30), XDP_REDIRECT);
	/* ARP: not IP. */
	len = frame(b, false, false, 0, EXT_NONE, 1025, 9);
	b[12] = 0x08;
	b[13] = 0x06;
	assert_int_equal(run(&g, b, len), XDP_REDIRECT);
	/* ICMP (protocol 1): no ports; sport 1025 would have gone to the 2nd CPU. */
	len = frame(b, false, false, 0, EXT_NONE, 1025, 9);
	b[14 + 9] = 1;
	assert_int_equal(run(&g, b, len), XDP_REDIRECT);
	assert_misses(&g, 1, 1, 1, 0);
	assert_steered(&g, 3, 0);
	redirect__destroy(g.s);

	/* IPv6 extension chains the parser refuses are malformed, a non-first
	 * fragment has no ports; each goes to the 1st CPU and is counted. */
	rig_load(&g, XL_STEER_L4_SPORT);
	{
		struct xl_pkt_spec s = { .ipv6 = true, .src_port = 1025, .dst_port = 9, .size = 128 };
		struct xl_pkt_layout lo;

		inet_pton(AF_INET6, "2001:2::1", &s.src_ip6);
		inet_pton(AF_INET6, "2001:2::2", &s.dst_ip6);
		s.n_ext = xl_pkt_ext_parse("dst,rt,frag", s.ip6_ext);
		xl_pkt_layout(&s, &lo);
		len = xl_pkt_build(&s, b, sizeof(b));
		assert_int_equal(run(&g, b, len), XDP_REDIRECT); /* well formed: sport 1025, 2nd CPU */
		b[lo.l3_off + 40] = 0; /* dst names Hop-by-Hop next: not first */
		assert_int_equal(run(&g, b, len), XDP_REDIRECT);
		len = xl_pkt_build(&s, b, sizeof(b));
		b[lo.l3_off + 40 + 9] = 200; /* rt's length: 1608 bytes, past the payload */
		assert_int_equal(run(&g, b, len), XDP_REDIRECT);
		len = xl_pkt_build(&s, b, sizeof(b));
		b[lo.l3_off + 40 + 16 + 3] = 8; /* fragment offset 1: no L4 header here */
		assert_int_equal(run(&g, b, len), XDP_REDIRECT);
	}
	assert_misses(&g, 0, 2, 1, 0);
	assert_steered(&g, 3, 1);
	redirect__destroy(g.s);

	rig_load(&f, XL_STEER_L4_FILTER);
	len = frame(b, true, false, 2, EXT_HBH_DST, 1024, 9);
	assert_int_equal(run(&f, b, len), XDP_DROP);
	len = frame(b, true, false, 2, EXT_HBH_DST, 1024, 53);
	assert_int_equal(run(&f, b, len), XDP_REDIRECT);
	assert_misses(&f, 0, 0, 0, 1);
	assert_steered(&f, 0, 1);
	redirect__destroy(f.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_round_robin),
		cmocka_unit_test(test_misses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
