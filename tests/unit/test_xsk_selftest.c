// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_xsk_selftest.c - the AF_XDP selftest's pure parts: the frames it
 * sends (byte for byte), its table of cases, and what each case builds:
 * every descriptor written inside the sender's UMEM and none overlapping
 * another (the unaligned case once wrote frame i + 1 over frame i's tail),
 * the invalid-descriptor lists and their counts, multi-buffer cuts, the
 * fragments limit. No root: nothing is bound or sent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xsk_selftest_priv.h"

static const uint8_t SRC[6] = { 2, 0x58, 0x4c, 0, 0, 1 }, DST[6] = { 2, 0x58, 0x4c, 0, 0, 2 };

static void test_frame_bytes(void **state)
{
	static uint8_t a[XST_MAX_FRAME], b[64];
	const uint8_t hdr[XST_HDR] = { 2, 0x58, 0x4c, 0, 0, 2, 2, 0x58, 0x4c, 0, 0, 1, 0x88, 0xb5,
				       'X', 'L', 'S', 'T', 1, 2, 3, 4 };
	uint32_t k;

	xst_frame(SRC, DST, 0x01020304, XST_MAX_FRAME, a);
	assert_memory_equal(a, hdr, XST_HDR);
	for (k = XST_HDR; k < XST_MAX_FRAME; k++)
		assert_int_equal(a[k], (uint8_t)(0x01020304u * 31 + k));
	/* A byte depends on the sequence number and its place only. */
	xst_frame(SRC, DST, 0x01020304, sizeof(b), b);
	assert_memory_equal(a, b, sizeof(b));
}

/* Our frames whatever their MACs and sequence; another sender's are not (an IPv6 NS). */
static void test_frame_ours(void **state)
{
	uint8_t f[64], ns[86] = { 0x33, 0x33, 0xff, 0, 0, 2, 2, 0x58, 0x4c, 0, 0, 1, 0x86, 0xdd, 0x60 };
	uint32_t k;

	xst_frame(SRC, DST, 7, sizeof(f), f);
	assert_true(xst_frame_ours(f, sizeof(f)));
	assert_true(xst_frame_ours(f, XST_HDR));
	assert_false(xst_frame_ours(f, XST_HDR - 1));
	xst_frame(DST, SRC, 0xffffffffu, sizeof(f), f);
	assert_true(xst_frame_ours(f, sizeof(f)));
	/* Any one header byte after the MACs wrong: not ours. */
	for (k = 12; k < 18; k++) {
		f[k] ^= 0x01;
		assert_false(xst_frame_ours(f, sizeof(f)));
		f[k] ^= 0x01;
	}
	assert_false(xst_frame_ours(ns, sizeof(ns)));
}

static void test_table(void **state)
{
	int i, j;

	assert_int_equal(xl_xskst_ncases(), 31);
	for (i = 0; i < xl_xskst_ncases(); i++) {
		assert_non_null(xl_xskst_case_name(i));
		assert_non_null(xl_xskst_case_what(i));
		for (j = 0; j < i; j++)
			assert_string_not_equal(xl_xskst_case_name(i), xl_xskst_case_name(j));
	}
	assert_null(xl_xskst_case_name(-1));
	assert_null(xl_xskst_case_name(xl_xskst_ncases()));
	assert_string_equal(xl_xskst_mode_name(XL_XSKST_SKB), "skb");
	assert_string_equal(xl_xskst_mode_name(XL_XSKST_ZC_BUSY), "zc_busy_poll");
	assert_string_equal(xl_xskst_mode_name(XL_XSKST_NMODES), "?");
}

static int find(const char *name)
{
	int i;

	for (i = 0; i < xst_ncases; i++)
		if (!strcmp(xst_cases[i].name, name))
			return i;
	fail_msg("no case %s", name);
	return -1;
}

/* Build case @name into @x (its verdict into @r), asserting it builds. */
static void build(const char *name, struct xst_ctx *x, struct xl_xskst_result *r,
		  struct xst_layout *lo)
{
	memset(x, 0, sizeof(*x));
	memset(r, 0, sizeof(*r));
	x->r = r;
	assert_int_equal(xst_case_build(x, &xst_cases[find(name)], lo), 0);
}

static void done(struct xst_ctx *x)
{
	xst_flow_free(&x->p.ab);
	xst_flow_free(&x->p.ba);
}

struct range {
	uint64_t lo, hi;
};

static int by_lo(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every written descriptor of @f inside @umem bytes, none over another. */
static void check_flow(const char *name, const struct xst_flow *f, uint64_t umem)
{
	struct range *r = calloc(f->nd + 1, sizeof(*r));
	uint32_t i, n = 0;

	assert_non_null(r);
	for (i = 0; i < f->nd; i++) {
		if (!f->d[i].write)
			continue;
		if (f->d[i].addr + f->d[i].len > umem)
			fail_msg("%s: descriptor %u (%#llx + %u) beyond the UMEM of %llu bytes", name, i,
				 (unsigned long long)f->d[i].addr, f->d[i].len, (unsigned long long)umem);
		r[n++] = (struct range){ f->d[i].addr, f->d[i].addr + f->d[i].len };
	}
	qsort(r, n, sizeof(*r), by_lo);
	for (i = 1; i < n; i++)
		if (r[i].lo < r[i - 1].hi)
			fail_msg("%s: descriptors over each other at %#llx", name, (unsigned long long)r[i].lo);
	free(r);
}

static void test_every_case_fits(void **state)
{
	struct xl_xskst_result r;
	struct xst_layout lo;
	struct xst_ctx x;
	int i;

	for (i = 0; i < xst_ncases; i++) {
		uint64_t umem;

		build(xst_cases[i].name, &x, &r, &lo);
		umem = (uint64_t)(lo.tx_frames + (x.p.bidi ? lo.fill_frames : 0) + x.p.unaligned) *
		       x.p.frame_size;
		check_flow(xst_cases[i].name, &x.p.ab, umem);
		check_flow(xst_cases[i].name, &x.p.ba, umem);
		/* What must arrive fits a chunk's room, or is multi-buffer. */
		for (uint32_t k = 0; k < x.p.ab.np && !x.p.sg; k++)
			if (x.p.ab.p[k].len + (x.p.tail_delta > 0 ? x.p.tail_delta : 0) >
			    x.p.frame_size - XST_KERNEL_HEADROOM - x.p.headroom)
				fail_msg("%s: frame %u of %u bytes does not fit", xst_cases[i].name, k,
					 x.p.ab.p[k].len);
		done(&x);
	}
}

static void test_inv_desc_lists(void **state)
{
	static const bool valid[] = { 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
	struct xl_xskst_result r;
	struct xst_layout lo;
	struct xst_ctx x;
	uint32_t i;

	build("aligned_inv_desc_2k_frame", &x, &r, &lo);
	assert_int_equal(x.p.frame_size, 2048);
	assert_int_equal(x.p.ab.nd, 11);
	for (i = 0; i < 11; i++)
		assert_int_equal(x.p.ab.d[i].valid, valid[i]);
	assert_int_equal(x.p.tx_exp.tx_invalid_descs, 7);
	assert_int_equal(x.p.ab.np, 4);
	/* up to the UMEM's end: its last 64 bytes, the UMEM being the 16 TX chunks */
	assert_int_equal(lo.tx_frames, 16);
	assert_int_equal(x.p.ab.d[5].addr, 16 * 2048 - 64);
	assert_int_equal(x.p.ab.d[4].len, 0);
	assert_int_equal(x.p.ab.d[3].len, 2049);
	done(&x);

	build("unaligned_inv_desc", &x, &r, &lo);
	assert_true(x.p.unaligned);
	assert_int_equal(x.p.tx_exp.tx_invalid_descs, 4);
	assert_int_equal(x.p.ab.np, 5);
	assert_int_equal(x.p.ab.d[2].addr, 3 * 4096 - 32); /* across a chunk: valid */
	assert_true(x.p.ab.d[2].valid);
	done(&x);

	build("stat_tx_invalid", &x, &r, &lo);
	assert_int_equal(x.p.ab.nd, 1024);
	assert_int_equal(x.p.ab.np, 512);
	assert_int_equal(x.p.tx_exp.tx_invalid_descs, 512);
	done(&x);
}

static void test_multi_buffer_cuts(void **state)
{
	struct xl_xskst_result r;
	struct xst_layout lo;
	struct xst_ctx x;
	const struct xst_desc *d;

	build("send_receive_9k_multi_buffer", &x, &r, &lo);
	assert_true(x.p.sg);
	assert_int_equal(x.p.mtu, 9000);
	assert_int_equal(x.p.ab.np, 256);
	assert_int_equal(x.p.ab.nd, 128 * 2 + 128 * 3);
	d = x.p.ab.d;
	/* frame 0: 5000 bytes in 4096 + 904; frame 1: 9014 in 4096 + 4096 + 822 */
	assert_int_equal(d[0].len, 4096);
	assert_int_equal(d[0].options, XDP_PKT_CONTD);
	assert_int_equal(d[1].len, 904);
	assert_int_equal(d[1].off, 4096);
	assert_int_equal(d[1].options, 0);
	assert_int_equal(d[2].seq, 1);
	assert_int_equal(d[4].len, 822);
	assert_int_equal(d[4].off, 8192);
	assert_int_equal(d[4].addr, 3 * 4096 + 2 * 4096);
	done(&x);
}

static void test_too_many_frags(void **state)
{
	struct xl_xskst_result r;
	struct xst_layout lo;
	struct xst_ctx x;
	uint32_t m;

	build("too_many_frags", &x, &r, &lo);
	m = x.p.tx_exp.tx_invalid_descs - 1; /* the most a frame may have */
	assert_true(m >= 2);
	assert_int_equal(x.p.ab.nd, 1 + m + (m + 1) + 2);
	assert_int_equal(x.p.ab.np, 3);
	assert_int_equal(x.p.ab.p[1].len, m * 64);
	assert_int_equal(x.p.ab.p[2].seq, 3);
	assert_int_equal(x.p.ab.d[1 + m + m].options, 0); /* the invalid frame's last */
	assert_false(x.p.ab.d[1 + m].valid);
	done(&x);
}

static void test_run_range(void **state)
{
	struct xl_xskst_config c = { "a", NULL, "b", NULL, 0, 0 };
	struct xl_xskst_result r;

	assert_int_equal(xl_xskst_run(&c, XL_XSKST_SKB, -1, &r), -EINVAL);
	assert_int_equal(xl_xskst_run(&c, XL_XSKST_SKB, xl_xskst_ncases(), &r), -EINVAL);
	assert_int_equal(xl_xskst_run(&c, XL_XSKST_NMODES, 0, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_bytes),
		cmocka_unit_test(test_frame_ours),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_every_case_fits),
		cmocka_unit_test(test_inv_desc_lists),
		cmocka_unit_test(test_multi_buffer_cuts),
		cmocka_unit_test(test_too_many_frags),
		cmocka_unit_test(test_run_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
