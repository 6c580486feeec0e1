/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progbench_priv.h - private to src/lib/measure/progbench.c (the
 * measurement) and progbench_print.c (its text and JSON): the bench's
 * state behind xdplab/progbench.h.
 */
#ifndef XDPLAB_PROGBENCH_PRIV_H
#define XDPLAB_PROGBENCH_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "xdplab/abtest.h"
#include "xdplab/bench.h"
#include "xdplab/pkt_class.h"
#include "xdplab/progbench.h"

/* Most packet classes told apart; the last takes the rest. */
#define PB_MAX_CLASSES 64

/* One program's runs: raw[round][frame] ns, and each frame's action and out bytes. */
struct pb_side {
	const char *path;
	struct xl_userprog *u;
	int empty_fd;
	double *raw, *empty; /* rounds x frames */
	int *action;         /* per frame, of one run on a fresh copy; -1: not runnable (error in err) */
	int *err;            /* -E2BIG: longer than the linear part a program without frags sees */
	uint32_t *out_len, *linear;
};

/* A packet class's frames and sums, per side. */
struct pb_class {
	char name[XL_PKT_CLASS_LEN];
	size_t frames;
	uint64_t actions[2][XL_XDP_ACTIONS + 1]; /* per side; [5]: other */
	uint64_t out_bytes[2];
	double sum[2][XL_AB_MAX_ROUNDS]; /* per side, per round: sum of net ns */
	double net_sum[2];
};

struct xl_progbench {
	struct xl_progbench_opts o;
	const struct xl_pcap_frames *f;
	struct pb_side sides[2];
	int ns;              /* sides: 1, or 2 (A/B) */
	bool *fresh;         /* per frame: a side changed it, so calls of one run each */
	uint32_t calls;      /* calls a round for a fresh frame: min(repeat, FRESH_MAX_CALLS) */
	uint8_t *out;        /* the frame after a run */
	uint64_t rounds;     /* complete rounds (the asked ones in o.rounds) */
	int done, nfresh;
	double overhead[2][2]; /* [side][fresh]: the empty program's median */
	struct pb_class *cls; /* PB_MAX_CLASSES, summed by pb_classes() */
	int nc, skipped, disagree;
	bool summed;
};

/* Frame @i's number: the capture's (skipped frames leave gaps), else from 1. */
static inline unsigned long long pb_frame_no(const struct xl_pcap_frames *f, size_t i)
{
	return f->num ? f->num[i] : i + 1;
}

/* Net ns of frame @i on @s: its rounds' raw median less the empty's. */
double pb_frame_net(const struct xl_progbench *pb, const struct pb_side *s, size_t i,
		    double *raw, double *empty);

/* The classes' sums over the frames run, once. */
void pb_classes(struct xl_progbench *pb);

#endif /* XDPLAB_PROGBENCH_PRIV_H */
