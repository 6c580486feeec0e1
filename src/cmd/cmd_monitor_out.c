// SPDX-License-Identifier: BSD-2-Clause
/* xdplab monitor's output: the table, the totals, the JSON records (monitor_cli.h). */
#include <stdio.h>
#include <string.h>

#include "monitor_cli.h"
#include "xdplab/stats.h"

/*
 * -e: does @key's row carry a sched count? The cpumap kthread's only
 * (struct xl_mon_val): xdp-monitor -e prints it for the kthread alone.
 */
static bool shows_sched(const struct xl_mon_key *key, const struct xl_mon_cpus *pc)
{
	return pc->ncpus > 0 && key->event == XL_EV_CPUMAP_KTHREAD;
}

static json_t *row_json(const struct xl_mon_row *r, const struct xl_mon_val *d, uint64_t ns,
			bool rates, bool sched)
{
	char abuf[24];
	json_t *o = json_pack("{s:s, s:s, s:i, s:i, s:s, s:I, s:I, s:I}",
			      "event", xl_mon_event_name(r->key.event),
			      "action", xl_mon_action_name(r->key.action, abuf, sizeof(abuf)),
			      "ifindex", (int)r->key.ifindex, "errno", (int)r->key.err,
			      "errno_name", xl_errno_name(r->key.err),
			      "events", (json_int_t)d->events, "packets", (json_int_t)d->packets,
			      "drops", (json_int_t)d->drops);

	if (o && rates) {
		json_object_set_new(o, "events_per_s", json_real(xl_rate(d->events, ns)));
		json_object_set_new(o, "packets_per_s", json_real(xl_rate(d->packets, ns)));
		json_object_set_new(o, "drops_per_s", json_real(xl_rate(d->drops, ns)));
	}
	if (o && sched) {
		json_object_set_new(o, "sched", json_integer((json_int_t)d->sched));
		if (rates)
			json_object_set_new(o, "sched_per_s", json_real(xl_rate(d->sched, ns)));
	}
	return o;
}

/*
 * -e: @key's counts on each CPU that counted it in the window, from the
 * per-CPU snapshots @cur[0..@ncpus) less @prev's (NULL: since the start),
 * into @d[cpu] (events 0 where it did not move). Return: CPUs that did.
 */
static int cpu_deltas(const struct xl_mon_key *key, const struct xl_mon_snapshot *prev,
		      const struct xl_mon_snapshot *cur, int ncpus, struct xl_mon_val *d)
{
	int c, n = 0;

	for (c = 0; c < ncpus; c++) {
		const struct xl_mon_row *row = xl_mon_find(&cur[c], key);

		memset(&d[c], 0, sizeof(d[c]));
		if (row)
			xl_mon_delta(prev ? &prev[c] : NULL, row, &d[c]);
		n += d[c].events > 0;
	}
	return n;
}

/* -e: packets per event in @d, the bulk events' average bulk (1 for the others). */
static double per_event(const struct xl_mon_val *d)
{
	return d->events ? (double)d->packets / (double)d->events : 0;
}

/* One record of the --json file: the keys that moved in the window (all of
 * them for totals); with -e each row's "per_cpu" array too, and the cpumap
 * kthread's rows and CPUs their "sched" count (and "sched_per_s"). */
json_t *xl_mon_cli_json(const char *what, double t, const struct xl_mon_snapshot *prev,
			const struct xl_mon_snapshot *cur, uint64_t ns, const struct xl_mon_cpus *pc)
{
	json_t *doc = json_object(), *rows = json_array();
	struct xl_mon_val d;
	int i, c;

	for (i = 0; i < cur->n; i++) {
		json_t *row;
		bool sched;

		xl_mon_delta(prev, &cur->rows[i], &d);
		if (!d.events && prev)
			continue;
		sched = shows_sched(&cur->rows[i].key, pc);
		row = row_json(&cur->rows[i], &d, ns, prev != NULL, sched);
		if (row && pc->ncpus) {
			json_t *arr = json_array(), *e;

			cpu_deltas(&cur->rows[i].key, pc->prev, pc->cur, pc->ncpus, pc->d);
			for (c = 0; c < pc->ncpus; c++) {
				if (!pc->d[c].events)
					continue;
				e = json_pack("{s:i,s:I,s:I,s:I}", "cpu", c,
					      "events", (json_int_t)pc->d[c].events,
					      "packets", (json_int_t)pc->d[c].packets,
					      "drops", (json_int_t)pc->d[c].drops);
				if (e && sched)
					json_object_set_new(e, "sched",
							    json_integer((json_int_t)pc->d[c].sched));
				json_array_append_new(arr, e);
			}
			json_object_set_new(row, "per_cpu", arr);
		}
		json_array_append_new(rows, row);
	}
	json_object_set_new(doc, "type", json_string(what));
	json_object_set_new(doc, "t", json_real(t));
	json_object_set_new(doc, "rows", rows);
	return doc;
}

/* The rates of @d over @ns and @total events, as the table's last four
 * columns, then with -e (@ext) packets per event and sched/s (@sched: the
 * kthread's rows; "-" for the others); the line ends. */
static void print_rates(const struct xl_mon_val *d, uint64_t ns, uint64_t total, bool ext,
			bool sched)
{
	char b1[32], b2[32], b3[32], b4[32];

	printf(" %12s %12s %12s %14llu",
	       xl_fmt_thousands((uint64_t)xl_rate(d->events, ns), b1, sizeof(b1)),
	       xl_fmt_thousands((uint64_t)xl_rate(d->packets, ns), b2, sizeof(b2)),
	       xl_fmt_thousands((uint64_t)xl_rate(d->drops, ns), b3, sizeof(b3)),
	       (unsigned long long)total);
	if (ext)
		printf(" %10.2f %10s", per_event(d),
		       sched ? xl_fmt_thousands((uint64_t)xl_rate(d->sched, ns), b4, sizeof(b4)) :
			       "-");
	putchar('\n');
}

void xl_mon_cli_print(double t, const struct xl_mon_snapshot *prev,
		       const struct xl_mon_snapshot *cur, uint64_t ns, const struct xl_mon_cpus *pc)
{
	char abuf[24], cpu[24];
	struct xl_mon_val d;
	int i, c, shown = 0;

	for (i = 0; i < cur->n; i++) {
		const struct xl_mon_row *r = &cur->rows[i];

		xl_mon_delta(prev, r, &d);
		if (!d.events)
			continue;
		printf("%8.3f s  %-21s %-10s %7d  %-11s", t, xl_mon_event_name(r->key.event),
		       xl_mon_action_name(r->key.action, abuf, sizeof(abuf)), r->key.ifindex,
		       xl_errno_name(r->key.err));
		print_rates(&d, ns, r->val.events, pc->ncpus > 0, shows_sched(&r->key, pc));
		shown++;
		if (!pc->ncpus)
			continue;
		cpu_deltas(&r->key, pc->prev, pc->cur, pc->ncpus, pc->d);
		for (c = 0; c < pc->ncpus; c++) {
			const struct xl_mon_row *cr = xl_mon_find(&pc->cur[c], &r->key);

			if (!pc->d[c].events)
				continue;
			snprintf(cpu, sizeof(cpu), "  cpu %d", c);
			printf("%8s    %-21s %-10s %7s  %-11s", "", cpu, "", "", "");
			print_rates(&pc->d[c], ns, cr ? cr->val.events : 0, true,
				    shows_sched(&r->key, pc));
		}
	}
	if (!shown)
		printf("%8.3f s  (no events)\n", t);
}

void xl_mon_cli_totals(const struct xl_mon_snapshot *s, double secs, const struct xl_mon_cpus *pc)
{
	char abuf[24];
	int i, c;

	printf("totals in %.3f s: %d key(s)\n", secs, s->n);
	for (i = 0; i < s->n; i++) {
		const struct xl_mon_row *r = &s->rows[i];

		bool sched = shows_sched(&r->key, pc);

		printf("  %-21s %-10s ifindex %-4d %-11s events %llu packets %llu drops %llu",
		       xl_mon_event_name(r->key.event),
		       xl_mon_action_name(r->key.action, abuf, sizeof(abuf)), r->key.ifindex,
		       xl_errno_name(r->key.err), (unsigned long long)r->val.events,
		       (unsigned long long)r->val.packets, (unsigned long long)r->val.drops);
		if (sched)
			printf(" sched %llu", (unsigned long long)r->val.sched);
		putchar('\n');
		if (!pc->ncpus)
			continue;
		cpu_deltas(&r->key, NULL, pc->cur, pc->ncpus, pc->d);
		for (c = 0; c < pc->ncpus; c++) {
			if (!pc->d[c].events)
				continue;
			printf("    cpu %-3d events %llu packets %llu drops %llu packets/event %.2f",
			       c, (unsigned long long)pc->d[c].events,
			       (unsigned long long)pc->d[c].packets,
			       (unsigned long long)pc->d[c].drops, per_event(&pc->d[c]));
			if (sched)
				printf(" sched %llu", (unsigned long long)pc->d[c].sched);
			putchar('\n');
		}
	}
}

