// SPDX-License-Identifier: BSD-2-Clause
/*
 * What `lab run` measures on its lab, in order (xdplab/labplan.h): the
 * rows at each size with --ab's and --prog's, the sensitivity searches,
 * the latency rows; and the latency rows' table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "xdplab/compare.h"
#include "xdplab/gen.h"
#include "xdplab/labplan.h"
#include "xdplab/labrun_ndr.h"
#include "xdplab/labrun_redirect.h"
#include "xdplab/log.h"

static void step(const struct xl_labplan *p, const char *what)
{
	if (p->progress && p->progress->step)
		p->progress->step(p->progress->ctx, what);
}

static void skip(const struct xl_labplan *p)
{
	if (p->progress && p->progress->skip)
		p->progress->skip(p->progress->ctx);
}

/* The plan's companion's records into @row (one row, one plan). */
static void take_host(const struct xl_labplan *p, struct xl_row_result *row)
{
	if (p->host)
		xl_hostrec__take(p->host, row);
}

int xl_labplan_steps(const struct xl_labplan *p)
{
	const struct xl_labrow *r;
	int i, rows = 0, drops = 0;

	for (i = 0; (r = xl_labrow(i)); i++)
		if (p->rows[i]) {
			rows++;
			drops += !!(r->flags & XL_LABROW_DROP);
		}
	return p->nsizes * (rows + (p->ab[0] ? 2 * p->o->reps : 0) + (p->uo->path ? 1 : 0) +
			    (p->sensitivity ? drops : 0) + (p->latency ? 2 * XL_LAT_NPATHS : 0) +
			    p->ndr_searches);
}

/* What a window of --ab names in its progress step. */
struct ab_progress {
	const struct xl_labplan *p;
	uint32_t size;
};

/* Before each window: its progress step (the profiled repetition's windows have none). */
static void ab_window(void *ctx, int side, int rep)
{
	const struct ab_progress *ap = ctx;
	char what[96];

	if (rep >= ap->p->o->reps)
		return;
	snprintf(what, sizeof(what), "measuring ab-%c/%s at %u bytes, repetition %d", 'a' + side,
		 ap->p->ab_func[side], ap->size, rep + 1);
	step(ap->p, what);
}

/*
 * --ab: rows @rows[0] (A) and @rows[1] (B) at @size, measured in turn by
 * xl_labrun_prog_ab(), a progress step per window; what the companion
 * recorded beside the repetitions goes into both rows. A failure is
 * logged here, its note then cleared. Return: 0 or -errno.
 */
static int ab_rows(const struct xl_labplan *p, struct xl_lab *lab, uint32_t size,
		   struct xl_row_result *rows)
{
	struct ab_progress ap = { p, size };
	int k, err;

	err = xl_labrun_prog_ab(lab, p->o, p->uo, p->ab, p->ab_func, p->mode, size, rows,
				ab_window, &ap);
	if (p->host) {
		/* One plan for both rows (A's and B's windows): the same records. */
		struct xl_row_result *set[2] = { &rows[0], &rows[1] };

		xl_hostrec__take_set(p->host, set, 2);
	}
	if (!err)
		return 0;
	for (k = 0; k < 2; k++) {
		if (err != -EINTR && rows[k].note[0])
			xl_err("row %s at %u bytes failed: %s", rows[k].name, size, rows[k].note);
		rows[k].note[0] = '\0';
		xl_row_finish(&rows[k]);
	}
	return err;
}

int xl_labplan_size(const struct xl_labplan *p, struct xl_lab *lab, int s,
		    struct xl_row_result *rows, int max, int *np, bool *failed)
{
	uint32_t size = p->sizes[s];
	const struct xl_labrow *r;
	int i, n = *np, err = 0, first, k;
	char what[128];

	for (i = 0; (r = xl_labrow(i)) && n < max; i++) {
		/* What watching costs after its row, at the first size, when they fit. */
		struct xl_labrow_run run = { .mode = p->mode, .size = size,
					     .watch = p->watch && s == 0 &&
						      n + xl_labrow_nrows(r, p->o, true) <= max };
		int made = 1;

		if (!p->rows[i])
			continue;
		if (p->dut && xl_labrow_skip(r, lab, size, &rows[n])) {
			skip(p);
			n++;
			continue;
		}
		snprintf(what, sizeof(what), "measuring %s at %u bytes", r->name, size);
		step(p, what);
		first = n;
		err = r->measure(lab, p->o, r, &run, &rows[n], &made);
		/* One row, one plan: what its companion recorded is its own. */
		if (made == 1)
			take_host(p, &rows[n]);
		n += made;
		if (err == -EINTR) {
			/* The cost rows name their own cut-short rows. */
			if (!rows[n - 1].note[0])
				snprintf(rows[n - 1].note, sizeof(rows[n - 1].note),
					 "interrupted after %d of %d repetitions",
					 rows[n - 1].nreps, p->o->reps);
			break;
		}
		if (err) {
			/* A set of rows (the watch levels): the note of the row that failed. */
			for (k = first; k < n - 1 && !rows[k].note[0]; k++)
				;
			xl_err("row %s at %u bytes failed: %s", r->name, size,
			       rows[k].note[0] ? rows[k].note : strerror(-err));
			*failed = true;
			err = 0;
		}
	}
	/* --ab: two programs, repetitions alternating A B / B A. */
	if (p->ab[0] && !err && n + 2 <= max) {
		err = ab_rows(p, lab, size, &rows[n]);
		n += 2;
		if (err && err != -EINTR) {
			*failed = true;
			err = 0;
		}
	}
	/* --prog: the user's program after the built-in rows of this size. */
	if (p->uo->path && !err && n < max) {
		struct xl_labrun_opts po = *p->o;

		po.prog_count_check = true; /* an extra repetition: run_cnt vs veth's */
		snprintf(what, sizeof(what), "measuring prog/%s at %u bytes", p->prog_func, size);
		step(p, what);
		err = xl_labrun_prog(lab, &po, p->uo, p->prog_func, p->mode, size, &rows[n]);
		take_host(p, &rows[n]);
		n++;
		if (err && err != -EINTR) {
			xl_err("row prog/%s at %u bytes failed: %s", p->prog_func, size,
			       rows[n - 1].note);
			*failed = true;
			err = 0;
		}
	}
	*np = n;
	return err;
}

int xl_labplan_sens(const struct xl_labplan *p, struct xl_lab *lab, struct xl_sens_result *sens,
		    int max, int *n, bool *failed, FILE *say)
{
	const struct xl_labrow *r;
	int s, i, err = 0;

	for (s = 0; s < p->nsizes && err != -EINTR; s++)
		for (i = 0; (r = xl_labrow(i)) && err != -EINTR && *n < max; i++) {
			char line[256];

			if (!p->rows[i] || !(r->flags & XL_LABROW_DROP))
				continue;
			snprintf(line, sizeof(line), "sensitivity of %s at %u bytes", r->name,
				 p->sizes[s]);
			step(p, line);
			err = xl_labrun_sensitivity(lab, p->o, r->op, p->mode, p->sizes[s], &sens[*n]);
			if (err && err != -EINTR) {
				xl_err("sensitivity of %s at %u bytes failed: %s", r->name,
				       p->sizes[s], sens[*n].note);
				*failed = true;
				err = 0;
			}
			if (err != -EINTR)
				fprintf(say, "xdplab: %s\n", xl_sens_line(&sens[(*n)++], line,
									  sizeof(line)));
		}
	return err;
}

int xl_labplan_lat(const struct xl_labplan *p, struct xl_lab *lab, struct xl_lat_row *rows,
		   int max, int *n, bool *failed)
{
	static const uint64_t rates[] = { XL_LAT_LOW_PPS, 0 };
	int s, path, k, err = 0;
	char what[96];

	*n = 0;
	for (s = 0; s < p->nsizes; s++)
		for (path = 0; path < XL_LAT_NPATHS; path++)
			for (k = 0; k < 2; k++) {
				if (*n >= max) {
					xl_err("lab run --latency: more than %d latency rows: the rest (from lat/%s/%s at %u bytes) not measured",
					       max, xl_lat_path_name(path), rates[k] ? "low" : "load",
					       p->sizes[s]);
					return 0;
				}
				snprintf(what, sizeof(what), "measuring lat/%s/%s at %u bytes",
					 xl_lat_path_name(path), rates[k] ? "low" : "load",
					 p->sizes[s]);
				step(p, what);
				err = xl_labrun_latency(lab, p->o, path, rates[k], p->lat_delay_ns,
							p->sizes[s], &rows[*n]);
				(*n)++;
				if (err == -EINTR)
					return err;
				if (err) {
					xl_err("row %s at %u bytes failed: %s", rows[*n - 1].rec.name,
					       p->sizes[s], rows[*n - 1].rec.note);
					*failed = true;
				}
			}
	return 0;
}

void xl_labplan_header(const struct xl_labplan *p, const struct xl_lab *lab, char *header,
		       size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	/* The engine the rows' generators will get (gen falls back the same way). */
	const char *engine = xl_gen_live_check(NULL) ? "AF_PACKET (live frames refused here)" :
						      "live frames";

	snprintf(header, len,
		 "xdplab lab run: lab %s, %ld CPUs; wiring %s (%s), generator: %s, 1 thread on CPU%d;\n"
		 "%d reps x %.2g s after %.2g s warm-up, medians; 'valid' needs the judged CPU >= %.0f%% busy; "
		 "check = our count vs the veth's rx_queue_0_xdp_packets",
		 lab->tag, ncpu, xl_wiring_name(lab->wiring),
		 lab->wiring == XL_WIRING_THREADED ? "DUT NAPI kthread pinned away from the generator" :
						    "DUT NAPI in softirq on the generator's CPU",
		 engine, p->o->gen_cpu, p->o->reps, p->o->seconds_ns / 1e9, p->o->warmup_ns / 1e9,
		 XL_SATURATED_SHARE * 100);
	if (p->watch)
		snprintf(header + strlen(header), len - strlen(header),
			 ";\nredirect+... cost rows: softirq wiring, one traffic set-up, %d reps of %.2g s per level interleaved in %.0f ms slices; "
			 "costs are medians of the paired differences (positive: slower with the monitor), with 95%% CIs",
			 p->o->reps > XL_WATCH_MIN_REPS ? p->o->reps : XL_WATCH_MIN_REPS,
			 (p->o->seconds_ns < XL_WATCH_MAX_WINDOW_NS ? p->o->seconds_ns :
								   XL_WATCH_MAX_WINDOW_NS) / 1e9,
			 XL_WATCH_SLICE_NS / 1e6);
	if (p->o->with_perf)
		snprintf(header + strlen(header), len - strlen(header),
			 ";\nredirect+perf: perf record on %s --filter '%s' (matches nothing), open for the first set, enabled in its slices only",
			 XL_WATCH_PERF_EVENT, XL_WATCH_PERF_FILTER);
}

void xl_labplan_header_extra(const struct xl_labplan *p, char *header, size_t len)
{
	if (p->o->extra)
		snprintf(header + strlen(header), len - strlen(header),
			 ";\ndrop rows with --extra-ns %llu: a busy loop of that many CPU ns per packet, calibrated with BPF_PROG_RUN (the note gives the iterations and what they add by the BPF_PROG_RUN check)",
			 (unsigned long long)p->o->extra_ns);
}

void xl_labplan_header_sens(const struct xl_labplan *p, const struct xl_sens_result *sens,
			    int nsens, char *header, size_t len)
{
	int i;

	snprintf(header + strlen(header), len - strlen(header),
		 ";\nsensitivity: extra CPU ns/packet 1, 2, 3, 5, 8, 13... until compare (Mann-Whitney, p < %g) flags %d windows with it against %d interleaved without, twice in a row",
		 XL_CMP_ALPHA_DEFAULT, p->o->reps, p->o->reps);
	for (i = 0; i < nsens; i++) {
		char line[256];

		snprintf(header + strlen(header), len - strlen(header),
			 "\n  %s", xl_sens_line(&sens[i], line, sizeof(line)));
	}
}

double xl_labplan_print(const struct xl_labplan *p, FILE *out, struct xl_row_result *rows, int n,
			const char *header, const struct xl_lat_row *lat, int nlat,
			const struct xl_ndr_row *ndr, int nndr, const struct xl_ndr_row_opts *no)
{
	double ref;
	int i;

	/* An interrupted row keeps the repetitions it completed, summarised. */
	for (i = 0; i < n; i++)
		xl_row_finish(&rows[i]);
	xl_report_table(out, rows, n, header);
	ref = xl_rows_print_ctl(out, rows, n);
	xl_rows_print_prog_time(out, rows, n);
	xl_lat_rows_print(out, lat, nlat, p->o->reps);
	if (ndr) {
		fprintf(out, "\n");
		xl_ndr_rows_print(out, ndr, nndr, no);
	}
	xl_rows_print_profiles(out, rows, n);
	return ref;
}

/*
 * @b's members added to @a's (each a JSON object's text; @a NULL: none),
 * @b freed. Return: the text (free() it), or NULL (@b NULL, or ENOMEM).
 */
static char *json_join(const char *a, char *b)
{
	json_t *x, *y;
	char *text;

	if (!a || !b)
		return b;
	x = json_loads(a, 0, NULL);
	y = json_loads(b, 0, NULL);
	free(b);
	if (json_object_update(x, y)) {
		json_decref(x);
		json_decref(y);
		return NULL;
	}
	text = json_dumps(x, JSON_COMPACT);
	json_decref(x);
	json_decref(y);
	return text;
}

int xl_labplan_extra_json(const struct xl_lat_row *lat, int nlat, const struct xl_ndr_row *ndr,
			  int nndr, const struct xl_ndr_row_opts *no, double extra_ns, char **out)
{
	char *lat_json = NULL, *ndr_json = NULL;
	int err = 0;

	*out = NULL;
	if (lat) {
		lat_json = xl_lat_rows_json(lat, nlat);
		if (!lat_json)
			return -ENOMEM;
		*out = lat_json;
	}
	if (ndr) {
		ndr_json = json_join(lat_json, xl_ndr_rows_json(ndr, nndr, no, extra_ns, NULL));
		if (!ndr_json)
			err = -ENOMEM;
		if (lat_json && ndr_json) /* joined: the latency text is in it */
			free(lat_json);
		else if (lat_json && err)
			free(lat_json);
		*out = err ? NULL : ndr_json;
	}
	return err;
}

void xl_lat_rows_print(FILE *out, const struct xl_lat_row *rows, int n, int reps)
{
	char rate[32];
	int i;

	if (!n)
		return;
	fprintf(out, "\nlatency rows: 'gen --stamp' frames, CLOCK_MONOTONIC at both ends (one host); one-way = gen -> DUT end,\n"
		     "rt- = gen -> DUT -> back at the generator side; no warm-up; buckets of 3 significant bits (<= 12.5%%);\n"
		     "medians over %d reps; lost = sent - distinct received; us\n", reps);
	fprintf(out, "%-22s %5s %9s %9s %8s %6s %5s %8s %8s %8s %8s %8s  %s\n", "row", "size", "rate",
		"sent", "lost", "reord", "dup", "p50", "p90", "p99", "p99.9", "max", "note");
	for (i = 0; i < n; i++) {
		const struct xl_lat_rowrec *r = &rows[i].rec;
		const struct xl_lat_rep *m = &r->med;

		if (r->rate_pps)
			snprintf(rate, sizeof(rate), "%llu kpps", (unsigned long long)r->rate_pps / 1000);
		else
			snprintf(rate, sizeof(rate), "unpaced");
		fprintf(out, "%-22s %5u %9s %9llu %8llu %6llu %5llu %8.1f %8.1f %8.1f %8.1f %8.1f  %s%s%s%s\n",
			r->name, r->size, rate, (unsigned long long)m->sent,
			(unsigned long long)m->lost, (unsigned long long)m->reordered,
			(unsigned long long)m->duplicates, m->p50_ns / 1e3, m->p90_ns / 1e3,
			m->p99_ns / 1e3, m->p999_ns / 1e3, m->max_ns / 1e3, r->wiring,
			r->delay_ns ? ", receiver busy wait" : "", r->note[0] ? "; " : "", r->note);
	}
}
