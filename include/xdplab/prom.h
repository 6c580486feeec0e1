/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file prom.h
 * The Prometheus text exposition format (version 0.0.4, as Prometheus'
 * "Exposition formats" page and its client libraries write it): "# HELP"
 * and "# TYPE" lines per metric family, then one line per sample,
 * NAME{LABEL="VALUE",...} VALUE, no timestamps (node_exporter's textfile
 * collector refuses them). Label values are untrusted text (a device
 * name): xl_prom_escape() (xdplab/escape.h) writes them, so a scrape never
 * fails on them.
 * The commands write these files for node_exporter's textfile collector
 * (monitor and the benchmarks' --prometheus FILE), replaced atomically
 * (xdplab/atomicfile.h) each interval.
 */
#ifndef XDPLAB_PROM_H
#define XDPLAB_PROM_H

#include <stdint.h>
#include <stdio.h>

/**
 * struct xl_prom_label - one label of a sample: @name (a valid label
 * name, ours: [a-z_]+) and @value (any text; escaped when written).
 */
struct xl_prom_label {
	const char *name, *value;
};

/**
 * xl_prom_family() - the "# HELP @name @help" and "# TYPE @name @type"
 * lines that open a metric family on @f. @name: a valid metric name (ours;
 * counters end in _total); @type: "counter" or "gauge"; @help: one line
 * (\ and newline escaped). Every sample of the family follows it, before
 * the next family.
 */
void xl_prom_family(FILE *f, const char *name, const char *type, const char *help);

/**
 * xl_prom_sample() - one sample line of family @name on @f: its @n labels
 * @l (may be 0 and NULL) and the value @v, printed as an integer when it
 * is one below 2^53, else in the fewest significant digits (15 to 17)
 * that read back as @v ("NaN", "+Inf" and "-Inf" as the format spells
 * them).
 */
void xl_prom_sample(FILE *f, const char *name, const struct xl_prom_label *l, int n, double v);

/**
 * xl_prom_sample_u64() - xl_prom_sample() of a count, printed exactly
 * (a counter above 2^53 keeps its last digits).
 */
void xl_prom_sample_u64(FILE *f, const char *name, const struct xl_prom_label *l, int n,
			uint64_t v);

#endif /* XDPLAB_PROM_H */
