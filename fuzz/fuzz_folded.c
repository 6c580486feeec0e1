// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the profile folders on arbitrary bytes. An input whose
 * first byte is even is `perf script` text for
 * xl_folded__parse_perf_script() (every CPU kept), an odd one a .folded
 * file for xl_folded__read(). Checks what they promise: the samples are the
 * total of the stacks' counts, no more than the lines that were not
 * unparsed; every stack is "cpuN;comm;..." with no empty frame, no control
 * character and, past the comm, no "+0x<hex>" offset left after a symbol;
 * and the folded text written by xl_folded__write() reads back as the same
 * stacks and counts (folding the folded output again is identity).
 * Built by `make fuzz`.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/log.h"
#include "xdplab/profile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	xl_log_set_level(XL_LOG_SILENT);
	return 0;
}

/* Whether @f (@n bytes) ends in "+0x" and hex digits after something. */
static int has_offset(const char *f, size_t n)
{
	size_t e = n;

	while (e > 0 && isxdigit((unsigned char)f[e - 1]))
		e--;
	return e < n && e >= 4 && f[e - 1] == 'x' && f[e - 2] == '0' && f[e - 3] == '+';
}

/* The perf-script invariants of one stack (@s): see the top of the file. */
static void check_stack(const char *s)
{
	const char *p = s, *e;
	int i = 0;

	if (strncmp(s, "cpu", 3) || !isdigit((unsigned char)s[3]))
		abort();
	for (;; i++) {
		e = strchr(p, ';');
		if (!e)
			e = p + strlen(p);
		if (e == p)
			abort(); /* an empty frame */
		if (i >= 2 && has_offset(p, e - p))
			abort();
		if (!*e)
			break;
		p = e + 1;
	}
	if (i < 1)
		abort(); /* no comm */
	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();
}

/* Write @f as folded text, read it back: the same stacks and counts. */
static void round_trip(struct xl_folded *f)
{
	struct xl_folded *g = xl_folded__new();
	char *buf = NULL;
	size_t len = 0, i, n;
	unsigned long bad = 0;
	uint64_t c1, c2;
	FILE *m;
	int err;

	if (!g)
		abort();
	m = open_memstream(&buf, &len);
	if (!m || xl_folded__write(f, m))
		abort();
	fclose(m);
	m = fmemopen(buf, len ? len : 1, "r");
	if (!m)
		abort();
	err = len ? xl_folded__read(g, m, &bad) : 0;
	if (err) {
		fprintf(stderr, "fuzz_folded: its own output refused: %d at line %lu\n", err, bad);
		abort();
	}
	fclose(m);
	n = xl_folded__nstacks(f);
	if (xl_folded__nstacks(g) != n)
		abort();
	for (i = 0; i < n; i++) {
		const char *a = xl_folded__stack(f, i, &c1), *b = xl_folded__stack(g, i, &c2);

		if (strcmp(a, b) || c1 != c2)
			abort();
	}
	xl_folded__free(g);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xl_perf_script_stats st;
	struct xl_folded *f;
	bool script;
	uint64_t total = 0, c;
	size_t i, n;
	FILE *in;
	int err;

	if (size < 2)
		return 0;
	script = !(data[0] & 1);
	in = fmemopen((void *)(data + 1), size - 1, "r");
	f = xl_folded__new();
	if (!in || !f)
		abort();
	if (script)
		err = xl_folded__parse_perf_script(f, in, NULL, 0, &st);
	else
		err = xl_folded__read(f, in, NULL);
	fclose(in);
	if (err == -ENOMEM || (!script && err == -EBADMSG))
		goto out;
	if (err)
		abort();
	n = xl_folded__nstacks(f);
	for (i = 0; i < n; i++) {
		const char *s = xl_folded__stack(f, i, &c);

		if (!s || !*s)
			abort();
		if (script)
			check_stack(s);
		total += c;
	}
	if (xl_folded__samples(f, NULL) != total)
		abort();
	if (script && (total > st.lines - st.unparsed || st.unparsed > st.lines ||
		       (st.unparsed && !st.first_unparsed) || st.first_unparsed > st.lines))
		abort();
	round_trip(f);
out:
	xl_folded__free(f);
	return 0;
}
