// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_userprog.c - unit tests of what benchmarking a user's program
 * computes without the kernel: the map file tokens and the reading of map
 * files up to the first map update (src/lib/xdp/mapfile.c; map fd -1),
 * the packet class (src/lib/pkt/pkt_class.c) and the A/B statistics
 * (src/lib/measure/abtest.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/bpf.h>

#include "xdplab/abtest.h"
#include "xdplab/pkt.h"
#include "xdplab/pkt_class.h"
#include "xdplab/userprog.h"

#include "test_util.h"

/* The tests' own directory under $TMPDIR (tmp_dir_make()). */
static char dir[256];

static int setup_dir(void **state)
{
	return tmp_dir_make(dir, sizeof(dir), "userprog");
}

static int teardown_dir(void **state)
{
	return tmp_dir_remove(dir);
}

/* ---- map file tokens ---- */

static void test_token_hex(void **state)
{
	uint8_t b[4], want[4] = { 0x0a, 0x00, 0x00, 0xff };

	assert_int_equal(xl_map_parse_token("0x0a0000ff", 4, false, b), 0);
	assert_memory_equal(b, want, 4);
	assert_int_equal(xl_map_parse_token("0X0A0000FF", 4, false, b), 0);
	assert_memory_equal(b, want, 4);
	/* Exactly 2 digits per byte: neither fewer nor more. */
	assert_int_equal(xl_map_parse_token("0x0a00ff", 4, false, b), -EINVAL);
	assert_int_equal(xl_map_parse_token("0x0a0000ff00", 4, false, b), -EINVAL);
	assert_int_equal(xl_map_parse_token("0x0a0000fg", 4, false, b), -EINVAL);
}

static void test_token_dec(void **state)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	assert_int_equal(xl_map_parse_token("255", 1, false, &u8), 0);
	assert_int_equal(u8, 255);
	assert_int_equal(xl_map_parse_token("256", 1, false, &u8), -EINVAL);
	assert_int_equal(xl_map_parse_token("65535", 2, false, &u16), 0);
	assert_int_equal(u16, 65535);
	assert_int_equal(xl_map_parse_token("65536", 2, false, &u16), -EINVAL);
	assert_int_equal(xl_map_parse_token("4294967295", 4, false, &u32), 0);
	assert_int_equal(u32, 4294967295u);
	assert_int_equal(xl_map_parse_token("4294967296", 4, false, &u32), -EINVAL);
	assert_int_equal(xl_map_parse_token("18446744073709551615", 8, false, &u64), 0);
	assert_true(u64 == UINT64_MAX);
	assert_int_equal(xl_map_parse_token("-1", 4, false, &u32), -EINVAL);
	assert_int_equal(xl_map_parse_token("12x", 4, false, &u32), -EINVAL);
	assert_int_equal(xl_map_parse_token("", 4, false, &u32), -EINVAL);
	/* No decimal form for odd sizes: hex only. */
	assert_int_equal(xl_map_parse_token("1", 3, false, &u32), -EINVAL);
}

static void test_token_addr(void **state)
{
	uint8_t b[16], want4[4] = { 198, 18, 1, 7 };
	struct in6_addr a6;

	assert_int_equal(xl_map_parse_token("198.18.1.7", 4, false, b), 0);
	assert_memory_equal(b, want4, 4);
	assert_int_equal(xl_map_parse_token("198.18.1.256", 4, false, b), -EINVAL);
	assert_int_equal(xl_map_parse_token("2001:2::5", 16, false, b), 0);
	inet_pton(AF_INET6, "2001:2::5", &a6);
	assert_memory_equal(b, &a6, 16);
	/* An address of the wrong family for the size. */
	assert_int_equal(xl_map_parse_token("198.18.1.7", 16, false, b), -EINVAL);
}

static void test_token_lpm(void **state)
{
	uint8_t k[20], want4[8] = { 0 }, want6[20] = { 0 };
	uint32_t plen = 24;
	struct in6_addr a6;

	memcpy(want4, &plen, 4);
	want4[4] = 198, want4[5] = 18, want4[6] = 1, want4[7] = 0;
	assert_int_equal(xl_map_parse_token("198.18.1.0/24", 8, true, k), 0);
	assert_memory_equal(k, want4, 8);
	/* No length: the whole address. */
	plen = 32;
	memcpy(want4, &plen, 4);
	want4[7] = 9;
	assert_int_equal(xl_map_parse_token("198.18.1.9", 8, true, k), 0);
	assert_memory_equal(k, want4, 8);
	plen = 48;
	memcpy(want6, &plen, 4);
	inet_pton(AF_INET6, "2001:2::", &a6);
	memcpy(want6 + 4, &a6, 16);
	assert_int_equal(xl_map_parse_token("2001:2::/48", 20, true, k), 0);
	assert_memory_equal(k, want6, 20);
	assert_int_equal(xl_map_parse_token("198.18.1.0/33", 8, true, k), -EINVAL);
	assert_int_equal(xl_map_parse_token("2001:2::/129", 20, true, k), -EINVAL);
	assert_int_equal(xl_map_parse_token("198.18.1.0/", 8, true, k), -EINVAL);
	/* A bare number is no prefix. */
	assert_int_equal(xl_map_parse_token("19", 8, true, k), -EINVAL);
	/* An IPv4 prefix for an IPv6 trie. */
	assert_int_equal(xl_map_parse_token("198.18.1.0/24", 20, true, k), -EINVAL);
}

static void test_fillable(void **state)
{
	assert_true(xl_map_fillable(BPF_MAP_TYPE_LPM_TRIE));
	assert_true(xl_map_fillable(BPF_MAP_TYPE_ARRAY));
	assert_true(xl_map_fillable(BPF_MAP_TYPE_PERCPU_HASH));
	assert_false(xl_map_fillable(BPF_MAP_TYPE_DEVMAP));
	assert_false(xl_map_fillable(BPF_MAP_TYPE_XSKMAP));
	assert_false(xl_map_fillable(BPF_MAP_TYPE_PROG_ARRAY));
}

/* ---- packet class ---- */

static int frame(bool v6, uint8_t *buf)
{
	struct xl_pkt_spec s = { .ipv6 = v6, .src_port = 1, .dst_port = 2, .size = 64 };

	inet_pton(AF_INET, "198.18.0.1", &s.src_ip4);
	inet_pton(AF_INET, "198.18.0.2", &s.dst_ip4);
	inet_pton(AF_INET6, "2001:2::1", &s.src_ip6);
	inet_pton(AF_INET6, "2001:2::2", &s.dst_ip6);
	return xl_pkt_build(&s, buf, 128);
}

/* ---- map files (fd -1: what happens before the first update) ---- */

/*
 * xl_map_fill_file() of @body (@len bytes) written to a temporary file, or
 * of @path if @body is NULL, into a map of @type with 4-byte keys and
 * values and max_entries 4; its stderr in *@err (freed by the caller), with
 * the temporary file's name replaced by "F". Killed by SIGALRM after 5 s (a
 * read that never ends fails the test instead of hanging it).
 */
static int fill(uint32_t type, const char *body, size_t len, const char *path, char **err)
{
	char tmpl[300];
	struct capture ce;
	char *e, *at;
	int fd = -1, r;

	if (body) {
		snprintf(tmpl, sizeof(tmpl), "%s/map", dir);
		fd = open(tmpl, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, body, len), (ssize_t)len);
		close(fd);
		path = tmpl;
	}
	alarm(5);
	cap_start(&ce, STDERR_FILENO);
	r = xl_map_fill_file(-1, "m", type, 4, 4, 4, path);
	e = cap_end(&ce);
	alarm(0);
	if (body) {
		unlink(tmpl);
		while ((at = strstr(e, tmpl))) { /* "F" for the random name */
			*at = 'F';
			memmove(at + 1, at + strlen(tmpl), strlen(at + strlen(tmpl)) + 1);
		}
	}
	*err = e;
	return r;
}

#define FILL_EQ(type, body, want_r, want_err)                                   \
	do {                                                                     \
		char *e_;                                                        \
		int r_ = fill((type), (body), sizeof(body) - 1, NULL, &e_);     \
		assert_string_equal(e_, (want_err));                            \
		assert_int_equal(r_, (want_r));                                 \
		free(e_);                                                        \
	} while (0)

/* Lines of any length: a comment's tail past 1024 bytes is still comment. */
static void test_mapfile_long_lines(void **state)
{
	char body[3000], *e;
	int r;

	memset(body, 'a', sizeof(body));
	memcpy(body, "# ", 2);
	memcpy(body + 2000, " 1 2\n", 6); /* ends with the NUL of the string */
	r = fill(BPF_MAP_TYPE_HASH, body, strlen(body), NULL, &e);
	assert_string_equal(e, "");
	assert_int_equal(r, 0);
	free(e);
	/* A long entry line is one entry: it reaches the update (fd -1). */
	memset(body, ' ', 2000);
	memcpy(body + 2000, "1 2\n", 5);
	r = fill(BPF_MAP_TYPE_HASH, body, strlen(body), NULL, &e);
	assert_string_equal(e, "xdplab: F:1: map m: cannot store the entry: Bad file descriptor\n");
	assert_int_equal(r, -EBADF);
	free(e);
}

static void test_mapfile_nul(void **state)
{
	FILL_EQ(BPF_MAP_TYPE_HASH, "# ok\n1 2\0 3\n", -EINVAL,
		"xdplab: F:2: map m: a NUL byte in the line (accepted: text, KEY VALUE per line)\n");
	FILL_EQ(BPF_MAP_TYPE_HASH, "\0", -EINVAL,
		"xdplab: F:1: map m: a NUL byte in the line (accepted: text, KEY VALUE per line)\n");
}

/* An array index is checked against max_entries (4) before the update. */
static void test_mapfile_array_index(void **state)
{
	FILL_EQ(BPF_MAP_TYPE_ARRAY, "# idx val\n4 1\n", -EINVAL,
		"xdplab: F:2: map m: index 4 out of range (max_entries 4)\n");
	FILL_EQ(BPF_MAP_TYPE_PERCPU_ARRAY, "4294967295 1\n", -EINVAL,
		"xdplab: F:1: map m: index 4294967295 out of range (max_entries 4)\n");
	FILL_EQ(BPF_MAP_TYPE_ARRAY, "3 1\n", -EBADF,
		"xdplab: F:1: map m: cannot store the entry: Bad file descriptor\n");
	FILL_EQ(BPF_MAP_TYPE_HASH, "4 1\n", -EBADF, /* a hash key is no index */
		"xdplab: F:1: map m: cannot store the entry: Bad file descriptor\n");
}

/* Not a regular file: one line naming it, before any read (no hang). */
static void test_mapfile_not_regular(void **state)
{
	char mdir[300], fifo[320], want[768], *e;
	int r;

	snprintf(mdir, sizeof(mdir), "%s/mapdir", dir);
	assert_int_equal(mkdir(mdir, 0700), 0);
	r = fill(BPF_MAP_TYPE_HASH, NULL, 0, mdir, &e);
	snprintf(want, sizeof(want), "xdplab: --map m=%s: not a regular file (a directory; accepted: a text file of KEY VALUE lines, or /dev/null for an empty map)\n", mdir);
	assert_string_equal(e, want);
	assert_int_equal(r, -EINVAL);
	free(e);
	snprintf(fifo, sizeof(fifo), "%s/fifo", mdir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	r = fill(BPF_MAP_TYPE_HASH, NULL, 0, fifo, &e); /* no writer: open must not wait */
	snprintf(want, sizeof(want), "xdplab: --map m=%s: not a regular file (a pipe; accepted: a text file of KEY VALUE lines, or /dev/null for an empty map)\n", fifo);
	assert_string_equal(e, want);
	assert_int_equal(r, -EINVAL);
	free(e);
	unlink(fifo);
	rmdir(mdir);
	r = fill(BPF_MAP_TYPE_HASH, NULL, 0, "/dev/zero", &e);
	assert_string_equal(e, "xdplab: --map m=/dev/zero: not a regular file (a character device; accepted: a text file of KEY VALUE lines, or /dev/null for an empty map)\n");
	assert_int_equal(r, -EINVAL);
	free(e);
	r = fill(BPF_MAP_TYPE_HASH, NULL, 0, "/dev/null", &e); /* empty on purpose */
	assert_string_equal(e, "");
	assert_int_equal(r, 0);
	free(e);
	r = fill(BPF_MAP_TYPE_HASH, NULL, 0, "/nonexistent/xl-map", &e);
	assert_string_equal(e, "xdplab: --map m=/nonexistent/xl-map: No such file or directory\n");
	assert_int_equal(r, -ENOENT);
	free(e);
}

/* Larger than XL_MAP_FILE_MAX (a sparse file): refused before reading. */
static void test_mapfile_too_large(void **state)
{
	char tmpl[300], want[512], *e;
	int fd, r;

	snprintf(tmpl, sizeof(tmpl), "%s/big", dir);
	fd = open(tmpl, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, XL_MAP_FILE_MAX + 1), 0);
	close(fd);
	r = fill(BPF_MAP_TYPE_HASH, NULL, 0, tmpl, &e);
	unlink(tmpl);
	snprintf(want, sizeof(want), "xdplab: --map m=%s: 67108865 bytes, more than a map file may have (64 MiB)\n", tmpl);
	assert_string_equal(e, want);
	assert_int_equal(r, -EINVAL);
	free(e);
}

static void test_class(void **state)
{
	uint8_t f[160], v[160];
	char c[XL_PKT_CLASS_LEN];
	int n = frame(false, f);

	assert_string_equal(xl_pkt_class(f, n, c, sizeof(c)), "ipv4/udp");
	n = frame(true, f);
	assert_string_equal(xl_pkt_class(f, n, c, sizeof(c)), "ipv6/udp");
	/* A VLAN tag in front: vlan/ipv4/udp. */
	n = frame(false, f);
	memcpy(v, f, 12);
	v[12] = 0x81, v[13] = 0x00, v[14] = 0, v[15] = 5;
	memcpy(v + 16, f + 12, n - 12);
	assert_string_equal(xl_pkt_class(v, n + 4, c, sizeof(c)), "vlan/ipv4/udp");
	/* ICMP: change the protocol (the checksum does not matter to the class). */
	f[14 + 9] = 1;
	assert_string_equal(xl_pkt_class(f, n, c, sizeof(c)), "ipv4/icmp");
	f[14 + 9] = 132;
	assert_string_equal(xl_pkt_class(f, n, c, sizeof(c)), "ipv4/sctp");
	f[14 + 9] = 200;
	assert_string_equal(xl_pkt_class(f, n, c, sizeof(c)), "ipv4/proto-200");
	/* ARP and an unknown Ethertype. */
	f[12] = 0x08, f[13] = 0x06;
	assert_string_equal(xl_pkt_class(f, n, c, sizeof(c)), "arp");
	f[12] = 0x88, f[13] = 0xcc;
	assert_string_equal(xl_pkt_class(f, n, c, sizeof(c)), "eth/0x88cc");
	/* Truncated IPv4 header. */
	n = frame(false, f);
	assert_string_equal(xl_pkt_class(f, 14 + 10, c, sizeof(c)), "ipv4/malformed");
	assert_string_equal(xl_pkt_class(f, 10, c, sizeof(c)), "runt");
}

/* ---- A/B statistics ---- */

static void test_sign_p(void **state)
{
	/* 9 of 9 positive: 2 * 0.5^9. */
	assert_near(xl_sign_test_p(9, 0), 2.0 / 512, 1e-12);
	assert_near(xl_sign_test_p(0, 9), 2.0 / 512, 1e-12);
	/* 8 of 9: 2 * (1 + 9) / 512. */
	assert_near(xl_sign_test_p(8, 1), 20.0 / 512, 1e-12);
	/* Balanced: capped at 1. */
	assert_near(xl_sign_test_p(5, 5), 1.0, 1e-12);
	assert_near(xl_sign_test_p(0, 0), 1.0, 0);
	/* 5 of 5 is not enough for 5%: 0.0625. */
	assert_near(xl_sign_test_p(5, 0), 0.0625, 1e-12);
}

static void test_ab_compare(void **state)
{
	double a[9] = { 10, 11, 10, 12, 10, 11, 10, 13, 10 };
	double b[9], same[9];
	struct xl_ab_result r;
	int i;

	for (i = 0; i < 9; i++) {
		b[i] = a[i] + 2 + (i % 3);
		same[i] = a[i] + (i % 2 ? 1 : -1);
	}
	/* Costs: B always higher, so A is faster. */
	assert_int_equal(xl_ab_compare(a, b, 9, false, 0, &r), 0);
	assert_int_equal(r.verdict, XL_AB_A_FASTER);
	assert_near(r.diff_median, 3, 0);
	assert_true(r.ci);
	assert_near(r.diff_lo, 2, 0);
	assert_near(r.diff_hi, 4, 0);
	assert_near(r.p, 2.0 / 512, 1e-12);
	assert_string_equal(xl_ab_verdict_name(r.verdict), "A faster");
	/* Rates: the same numbers mean B is faster. */
	assert_int_equal(xl_ab_compare(a, b, 9, true, 0, &r), 0);
	assert_int_equal(r.verdict, XL_AB_B_FASTER);
	/* Mixed signs: ~. */
	assert_int_equal(xl_ab_compare(a, same, 9, false, 0, &r), 0);
	assert_int_equal(r.verdict, XL_AB_SAME);
	assert_string_equal(xl_ab_verdict_name(r.verdict), "~");
	/* Identical: every difference a tie, p 1, ~. */
	assert_int_equal(xl_ab_compare(a, a, 9, false, 0, &r), 0);
	assert_int_equal(r.verdict, XL_AB_SAME);
	assert_near(r.p, 1.0, 0);
	/* A difference within the minimum effect is ~ however sure. */
	assert_int_equal(xl_ab_compare(a, b, 9, false, 3, &r), 0);
	assert_int_equal(r.verdict, XL_AB_SAME);
	assert_int_equal(xl_ab_compare(a, b, 9, false, 2.9, &r), 0);
	assert_int_equal(r.verdict, XL_AB_A_FASTER);
	/* Too few pairs for an interval. */
	assert_int_equal(xl_ab_compare(a, b, 5, false, 0, &r), 0);
	assert_false(r.ci);
	assert_int_equal(r.verdict, XL_AB_SAME);
	assert_int_equal(xl_ab_compare(a, b, 0, false, 0, &r), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_hex),   cmocka_unit_test(test_token_dec),
		cmocka_unit_test(test_token_addr),  cmocka_unit_test(test_token_lpm),
		cmocka_unit_test(test_fillable),    cmocka_unit_test(test_class),
		cmocka_unit_test(test_sign_p),      cmocka_unit_test(test_ab_compare),
		cmocka_unit_test(test_mapfile_long_lines), cmocka_unit_test(test_mapfile_nul),
		cmocka_unit_test(test_mapfile_array_index),
		cmocka_unit_test(test_mapfile_not_regular),
		cmocka_unit_test(test_mapfile_too_large),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
