/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file abi/latency.h
 * Layouts shared by the generator's stamping (bpf/gen.bpf.c, gen --stamp),
 * the latency receiver (bpf/latency.bpf.c) and user space: the stamp in the
 * UDP payload, the per-CPU latency record, and the histogram's bucket
 * arithmetic (the same function on both sides). Compiles under clang
 * -target bpf and gcc.
 */
#ifndef XDPLAB_LATENCY_SHARED_H
#define XDPLAB_LATENCY_SHARED_H

#include <linux/types.h>

/**
 * The stamp: the first 20 bytes of the UDP payload. Bytes 0-15 are the
 * kernel pktgen header (net/core/pktgen.c struct pktgen_hdr: magic
 * 0xbe9be955, sequence number, tv_sec, tv_usec, all big-endian), the
 * layout xdpsock's --tstamp and xdp-trafficgen also write, so captures stay
 * readable by tools that know it. Differences, documented in docs/latency.md:
 * tv_sec/tv_usec are CLOCK_MONOTONIC (bpf_ktime_get_ns(), both ends on one
 * host), not the wall clock; bytes 16-17 carry the nanoseconds within the
 * microsecond (0..999, big-endian, an xdplab extension), bytes 18-19 are 0.
 */
#define XL_STAMP_MAGIC 0xbe9be955u
#define XL_STAMP_LEN 20

struct xl_stamp {
	__be32 magic;
	__be32 seq;
	__be32 tv_sec;
	__be32 tv_usec;
	__be16 nsec;
	__be16 zero;
};

/**
 * Histogram buckets, HdrHistogram-style with 3 significant bits: values
 * 0..7 ns have a bucket each; above, each power of two [2^e, 2^(e+1)) is cut
 * into 8 equal buckets, so a bucket's width is at most 1/8 of its lower
 * bound (relative error <= 12.5%). 320 buckets reach 2^41 ns (36 min);
 * larger values go to the last one.
 */
#define XL_LAT_BUCKETS 320

/** xl_lat_bucket() - the bucket of @v ns (see XL_LAT_BUCKETS). */
static inline __attribute__((always_inline)) __u32 xl_lat_bucket(__u64 v)
{
	__u64 x = v;
	__u32 e = 0, idx;

	if (v < 8)
		return (__u32)v;
	if (x >> 32) { e += 32; x >>= 32; }
	if (x >> 16) { e += 16; x >>= 16; }
	if (x >> 8) { e += 8; x >>= 8; }
	if (x >> 4) { e += 4; x >>= 4; }
	if (x >> 2) { e += 2; x >>= 2; }
	if (x >> 1) { e += 1; }
	/* e = floor(log2 v) >= 3: the 3 bits below the leading one. */
	idx = (e - 2) * 8 + (__u32)((v >> (e - 3)) & 7);
	return idx < XL_LAT_BUCKETS ? idx : XL_LAT_BUCKETS - 1;
}

/** Duplicate-detection window: the last seq seen in each of this many slots. */
#define XL_LAT_SEQ_SLOTS 1024

/**
 * struct xl_lat_rec - one CPU's latency record (per-CPU array "lat_stats",
 * key 0), written only by that CPU.
 * @frames: frames that reached the program; @stamped: of those, frames
 *   carrying a stamp (UDP, magic found); the rest are counted, not timed.
 * @sum_ns/@min_ns/@max_ns: one-way latency of the timed frames (valid
 *   when @timed > 0).
 * @negative: stamps later than the receiver's clock (another clock: a
 *   negative delta); not timed.
 * @unset: stamps of time 0 (tv_sec, tv_usec and nsec all 0); not timed.
 * @timed: stamped frames neither negative nor unset: the ones in @hist,
 *   @sum_ns, @min_ns and @max_ns (@stamped = @timed + @negative + @unset).
 * @seq_min/@seq_max: lowest and highest sequence number seen (valid when
 *   @stamped > 0).
 * @reordered: stamped frames whose seq was below @seq_max when they came.
 * @duplicates: frames whose seq was already seen (within the last
 *   XL_LAT_SEQ_SLOTS sequence numbers; older repeats count as reordered).
 * @hist: timed frames per bucket (xl_lat_bucket()).
 * @slots: slot s holds 1 + the last seq seen with seq % XL_LAT_SEQ_SLOTS == s.
 */
struct xl_lat_rec {
	__u64 frames;
	__u64 stamped;
	__u64 sum_ns;
	__u64 min_ns;
	__u64 max_ns;
	__u64 negative;
	__u64 seq_min;
	__u64 seq_max;
	__u64 reordered;
	__u64 duplicates;
	__u64 unset;
	__u64 timed;
	__u64 pad[4];
	__u64 hist[XL_LAT_BUCKETS];
	__u32 slots[XL_LAT_SEQ_SLOTS];
} __attribute__((aligned(64)));

#ifndef __bpf__
_Static_assert(sizeof(struct xl_stamp) == XL_STAMP_LEN, "struct xl_stamp changed size");
_Static_assert(sizeof(struct xl_lat_rec) == 128 + 8 * XL_LAT_BUCKETS + 4 * XL_LAT_SEQ_SLOTS,
	       "struct xl_lat_rec changed size");
#endif

#endif /* XDPLAB_LATENCY_SHARED_H */
