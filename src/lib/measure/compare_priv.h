/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/lib/measure/: what the ns/packet rows (compare.c) and the
 * latency rows (compare_lat.c) share, so that both are judged by one rule
 * (docs/compare.md "Verdict" and "Latency rows"); written in compare_rule.c.
 */
#ifndef XDPLAB_COMPARE_PRIV_H
#define XDPLAB_COMPARE_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include "xdplab/compare.h"

/**
 * xl_cmp_decide() - the verdict rule: XL_CMP_REGRESSION when @p < @o->alpha
 * and @delta > @o->threshold_ns, XL_CMP_IMPROVEMENT when @p < @o->alpha and
 * @delta < -@o->threshold_ns, XL_CMP_SAME otherwise (also p exactly alpha,
 * |delta| exactly the threshold, or either one NaN). @delta: new - base of
 * the deciding figure, ns (ns/packet, or ns of latency); positive is slower.
 */
enum xl_cmp_verdict xl_cmp_decide(double p, double delta, const struct xl_cmp_opts *o);

/**
 * xl_cmp_not_measured() - when a side has no repetitions (@base_reps or
 * @new_reps 0), the reason into @buf (@len bytes): "not measured in base",
 * "... in new" or "... in either file", then ": " and that side's note
 * (base's when both; at most 120 characters of it) when it has one.
 * Return: true when a side has none (@buf filled), false otherwise (@buf
 * untouched).
 */
bool xl_cmp_not_measured(char *buf, size_t len, int base_reps, const char *base_note,
			 int new_reps, const char *new_note);

/**
 * xl_cmp_text_differs() - when the set-up strings @a and @b differ, "@what
 * differs: A vs B" into @buf (@len bytes; "-" for an empty side): "wiring
 * differs: threaded vs softirq". Return: true when they differ (@buf
 * filled), false otherwise (@buf untouched).
 */
bool xl_cmp_text_differs(char *buf, size_t len, const char *what, const char *a, const char *b);

/**
 * xl_cmp_row_reps_differ() - when two rows that both have repetitions have
 * different numbers of them (@base_reps, @new_reps), "repetitions differ:
 * B vs N in this row" into @buf (@len bytes). Return: true then (@buf
 * filled), false otherwise (@buf untouched).
 */
bool xl_cmp_row_reps_differ(char *buf, size_t len, int base_reps, int new_reps);

/**
 * xl_cmp_order_fn - how row @i of file @a and row @j of file @b order by
 * identity: <0, 0 (the same row) or >0, a total order; on the full
 * identity when @exact, on the loose one (the set-up may differ: wiring,
 * engine) otherwise. @a and @b may be the same file.
 */
typedef int xl_cmp_order_fn(const struct xl_cmp_file *a, int i, const struct xl_cmp_file *b,
			    int j, bool exact);

/** struct xl_cmp_pairing - one output row: indices into BASE and NEW, -1 none. */
struct xl_cmp_pairing {
	int base, new;
};

/**
 * xl_cmp_pair() - pair @nbase rows of @base with @nnew rows of @new: each
 * BASE row in order takes the first unpaired NEW row of the same exact
 * identity (@order with exact true gives 0); the rows left then pair the
 * same way on the loose one. *@out gets BASE's rows in its order (with
 * their partner or -1), then NEW's unpaired rows in its order (base -1);
 * allocated, the caller free()s it. O((@nbase + @nnew) log @nnew): NEW's
 * rows are sorted by identity. Return: the number of entries (@nbase +
 * NEW's unpaired), -ENOMEM (*@out NULL).
 */
int xl_cmp_pair(const struct xl_cmp_file *base, int nbase, const struct xl_cmp_file *new,
		int nnew, xl_cmp_order_fn *order, struct xl_cmp_pairing **out);

/**
 * xl_cmp_find_dup() - whether two of the @n rows of @f have the same exact
 * identity under @order; if so the pair whose second row comes first in
 * the file into *@first < *@second (indices). Return: 1 found, 0 none,
 * -ENOMEM.
 */
int xl_cmp_find_dup(const struct xl_cmp_file *f, int n, xl_cmp_order_fn *order, int *first,
		    int *second);

/**
 * xl_cmp_lat_order() - the xl_cmp_order_fn of latency rows (the @lat
 * arrays): loose identity name (path and level) and size; exact: also
 * wiring.
 */
int xl_cmp_lat_order(const struct xl_cmp_file *a, int i, const struct xl_cmp_file *b, int j,
		     bool exact);

/** xl_cmp_zero_rates() - how many of the @n rates @v (frames/s) are 0 or below (not a rate). */
int xl_cmp_zero_rates(const double *v, int n);

/**
 * xl_cmp_test_ns() - a repetition's ns/packet as the tests take it:
 * 1e9/@pps, and INFINITY for a rate of 0 (infinitely slow).
 */
double xl_cmp_test_ns(double pps);

/** xl_cmp_all_positive() - all @n values of @v are above 0 (and @n > 0). */
bool xl_cmp_all_positive(const double *v, int n);

/**
 * xl_cmp_row_order() - the xl_cmp_order_fn of ns/packet rows (the @rows
 * arrays): loose identity name, packet operation, size and mode; exact:
 * also wiring and generator engine.
 */
int xl_cmp_row_order(const struct xl_cmp_file *a, int i, const struct xl_cmp_file *b, int j,
		     bool exact);

/* ---- the corrected figure (compare_fig.c) ---- */

/** xl_cmp_has_ctl() - every repetition of @r (at least one) has a host-speed control. */
bool xl_cmp_has_ctl(const struct xl_cmp_rowdata *r);

/**
 * xl_cmp_wants_corrected() - whether @o asks for the corrected figure for
 * the row of @id's identity: XL_CMP_FIG_CORRECTED always, XL_CMP_FIG_AUTO
 * when @o->calib has the row and prefers it (xl_calib_prefers_corrected();
 * @runs: several runs a side). The caller still needs every repetition's
 * control (xl_cmp_has_ctl()) to use it.
 */
bool xl_cmp_wants_corrected(const struct xl_cmp_opts *o, const struct xl_cmp_rowdata *id,
			    bool runs);

/**
 * xl_cmp_ctl_ref() - the reference control of a comparison: the median of
 * every repetition's @ctl_ns over the @n rows @rows (ns per run; 0 when
 * none has one).
 */
double xl_cmp_ctl_ref(const struct xl_cmp_rowdata *const *rows, int n);

/**
 * xl_cmp_correct() - @r with each repetition's figures moved to the
 * reference control @ref_ns: ns/packet and DUT CPU ns/packet times @ref_ns
 * over the repetition's control (so pps times control over @ref_ns), and
 * @mpps summarized again, into @out. A repetition without a control keeps
 * its figures (callers check xl_cmp_has_ctl() first).
 */
void xl_cmp_correct(const struct xl_cmp_rowdata *r, double ref_ns, struct xl_cmp_rowdata *out);

/*
 * XL_CMP_PROG_ONE_RUN - the reason of a --figure prog row of one run a
 * side (struct xl_cmp_row.reason): its figure is one value a run, so
 * --reps cannot help; several runs a side can.
 */
#define XL_CMP_PROG_ONE_RUN \
	"one run a side: the program's own time is one value a run; several runs a side decide on it (BASE.json... -- NEW.json...)"

/** xl_cmp_has_prog() - @r has the program's own time per run (@r->prog_ns > 0). */
bool xl_cmp_has_prog(const struct xl_cmp_rowdata *r);

/**
 * xl_cmp_prog_figure() - @r as one repetition whose figure is the
 * program's own time per run (--figure prog): DUT CPU ns/packet @prog_ns,
 * pps 1e9 / @prog_ns, no control; @mpps kept (the rate shown stays the
 * row's). Callers check xl_cmp_has_prog() first.
 */
void xl_cmp_prog_figure(const struct xl_cmp_rowdata *r, struct xl_cmp_rowdata *out);

#endif /* XDPLAB_COMPARE_PRIV_H */
