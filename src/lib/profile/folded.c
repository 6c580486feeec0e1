// SPDX-License-Identifier: BSD-2-Clause
/*
 * src/lib/profile/ owns profiling: running perf over a measured window
 * (perf.c), folding its samples into stacks and the top-symbols table
 * (this file), and the SVG flame graph (flame.c).
 *
 * Folded stacks are the format of Brendan Gregg's stackcollapse-perf.pl
 * ("frame;frame;frame count", root first, one line per distinct stack);
 * our parser reads `perf script` text as perf-script(1) documents it. The
 * stacks are appended, then sorted and merged once (xl_folded__finish()):
 * simpler than a hash table and fast enough for a few 100k samples.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/profile.h"

struct fentry {
	char *key; /* the stack, or label\x1f comm\x1f dso\x1f sym for self counts */
	uint64_t count;
};

struct fvec {
	struct fentry *v;
	size_t n, cap;
	bool sorted;
};

struct xl_folded {
	struct fvec stacks, self;
};

char *xl_prof_cpu_label(const struct xl_prof_cpu *c, char *buf, size_t len)
{
	if (c->role[0])
		snprintf(buf, len, "cpu%d %s", c->cpu, c->role);
	else
		snprintf(buf, len, "cpu%d", c->cpu);
	return buf;
}

struct xl_folded *xl_folded__new(void)
{
	return calloc(1, sizeof(struct xl_folded));
}

static void fvec_free(struct fvec *v)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		free(v->v[i].key);
	free(v->v);
}

void xl_folded__free(struct xl_folded *f)
{
	if (!f)
		return;
	fvec_free(&f->stacks);
	fvec_free(&f->self);
	free(f);
}

static int fvec_push(struct fvec *v, const char *key, uint64_t count)
{
	char *k;

	if (v->n == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 256;
		struct fentry *nv = realloc(v->v, cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		v->v = nv;
		v->cap = cap;
	}
	k = strdup(key);
	if (!k)
		return -ENOMEM;
	v->v[v->n++] = (struct fentry){ k, count };
	v->sorted = false;
	return 0;
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fentry *)a)->key, ((const struct fentry *)b)->key);
}

static void fvec_finish(struct fvec *v)
{
	size_t i, o = 0;

	if (v->sorted)
		return;
	/* qsort(NULL, 0, ...) is undefined (its first argument is nonnull). */
	if (v->n)
		qsort(v->v, v->n, sizeof(*v->v), key_cmp);
	for (i = 0; i < v->n; i++) {
		if (o && !strcmp(v->v[o - 1].key, v->v[i].key)) {
			v->v[o - 1].count += v->v[i].count;
			free(v->v[i].key);
			continue;
		}
		v->v[o++] = v->v[i];
	}
	v->n = o;
	v->sorted = true;
}

void xl_folded__finish(struct xl_folded *f)
{
	fvec_finish(&f->stacks);
	fvec_finish(&f->self);
}

int xl_folded__add(struct xl_folded *f, const char *stack, uint64_t count,
		   const char *label, const char *comm, const char *dso)
{
	const char *leaf;
	char key[512];
	int err;

	if (!*stack)
		return -EINVAL;
	err = fvec_push(&f->stacks, stack, count);
	if (err || !label)
		return err;
	leaf = strrchr(stack, ';');
	leaf = leaf ? leaf + 1 : stack;
	snprintf(key, sizeof(key), "%s\x1f%s\x1f%s\x1f%s", label, comm ? comm : "",
		 dso ? dso : "", leaf);
	return fvec_push(&f->self, key, count);
}

uint64_t xl_folded__samples(struct xl_folded *f, const char *label)
{
	size_t i, l = label ? strlen(label) : 0;
	uint64_t sum = 0;

	xl_folded__finish(f);
	for (i = 0; i < f->stacks.n; i++) {
		const char *s = f->stacks.v[i].key;

		if (!label || (!strncmp(s, label, l) && (s[l] == ';' || !s[l])))
			sum += f->stacks.v[i].count;
	}
	return sum;
}

size_t xl_folded__nstacks(struct xl_folded *f)
{
	xl_folded__finish(f);
	return f->stacks.n;
}

const char *xl_folded__stack(struct xl_folded *f, size_t i, uint64_t *count)
{
	xl_folded__finish(f);
	if (i >= f->stacks.n)
		return NULL;
	if (count)
		*count = f->stacks.v[i].count;
	return f->stacks.v[i].key;
}

int xl_folded__write(struct xl_folded *f, FILE *out)
{
	size_t i;

	xl_folded__finish(f);
	for (i = 0; i < f->stacks.n; i++)
		fprintf(out, "%s %llu\n", f->stacks.v[i].key,
			(unsigned long long)f->stacks.v[i].count);
	return ferror(out) ? -EIO : 0;
}

static int top_cmp(const void *a, const void *b)
{
	const struct xl_top_sym *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples < y->samples ? 1 : -1;
	return strcmp(x->sym, y->sym);
}

/* Copy the @i-th \x1f-separated field of @key into @dst (@len bytes). */
static void key_field(const char *key, int i, char *dst, size_t len)
{
	const char *e;

	while (i-- > 0 && (key = strchr(key, '\x1f')))
		key++;
	if (!key) {
		*dst = 0;
		return;
	}
	e = strchr(key, '\x1f');
	snprintf(dst, len, "%.*s", (int)(e ? (size_t)(e - key) : strlen(key)), key);
}

int xl_folded__top(struct xl_folded *f, const char *label, struct xl_top_sym *out, int max)
{
	size_t i, l = strlen(label);
	uint64_t total = xl_folded__samples(f, label);
	struct xl_top_sym *all;
	size_t n = 0;
	int k;

	if (max <= 0 || !total)
		return 0;
	all = calloc(f->self.n ? f->self.n : 1, sizeof(*all));
	if (!all)
		return 0;
	for (i = 0; i < f->self.n; i++) {
		const char *key = f->self.v[i].key;

		if (strncmp(key, label, l) || key[l] != '\x1f')
			continue;
		key_field(key, 0, all[n].label, sizeof(all[n].label));
		key_field(key, 1, all[n].comm, sizeof(all[n].comm));
		key_field(key, 2, all[n].dso, sizeof(all[n].dso));
		key_field(key, 3, all[n].sym, sizeof(all[n].sym));
		all[n].samples = f->self.v[i].count;
		all[n].share = (double)all[n].samples / total;
		n++;
	}
	qsort(all, n, sizeof(*all), top_cmp);
	k = n < (size_t)max ? (int)n : max;
	memcpy(out, all, k * sizeof(*all));
	free(all);
	return k;
}

/* perf script's parts of a sample. */
#define MAX_FRAMES 256

struct sample {
	bool open, keep;
	char label[32], comm[64], leaf_dso[96];
	char *frames[MAX_FRAMES];
	int nframes;
};

static void sample_reset(struct sample *s)
{
	int i;

	for (i = 0; i < s->nframes; i++)
		free(s->frames[i]);
	s->nframes = 0;
	s->open = false;
	s->leaf_dso[0] = 0;
}

/*
 * A frame name as a folded frame: no ';' (the separator) and no control
 * character (a newline would end the line, \x1f separates the fields of
 * the self-count keys): each becomes ':'. A task may name itself anything
 * (prctl(PR_SET_NAME)), a library path holds what its directory holds.
 */
static void clean_name(char *s)
{
	for (; *s; s++)
		if (*s == ';' || (unsigned char)*s < 0x20 || *s == 0x7f)
			*s = ':';
}

static int sample_flush(struct xl_folded *f, struct sample *s)
{
	size_t len;
	char *stack;
	int i, err;

	if (!s->open || !s->keep) {
		sample_reset(s);
		return 0;
	}
	len = strlen(s->label) + strlen(s->comm) + 3;
	for (i = 0; i < s->nframes; i++)
		len += strlen(s->frames[i]) + 1;
	stack = malloc(len);
	if (!stack)
		return -ENOMEM;
	len = sprintf(stack, "%s;%s", s->label, s->comm);
	for (i = s->nframes - 1; i >= 0; i--) /* perf lists the leaf first */
		len += sprintf(stack + len, ";%s", s->frames[i]);
	err = xl_folded__add(f, stack, 1, s->label, s->comm,
			     s->nframes ? s->leaf_dso : "[unknown]");
	free(stack);
	sample_reset(s);
	return err;
}

static char *rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

/* Back from @end (exclusive) over digits; return where they start (== @end: none). */
static const char *back_digits(const char *start, const char *end)
{
	while (end > start && isdigit((unsigned char)end[-1]))
		end--;
	return end;
}

static const char *back_spaces(const char *start, const char *end)
{
	while (end > start && end[-1] == ' ')
		end--;
	return end;
}

/*
 * A sample's header, "comm tid [cpu] period" or "comm pid/tid [cpu]
 * period", read from the right (perf script prints the comm as it is,
 * then one space, the tid right-aligned): the comm is whatever comes
 * before, spaces, brackets and a leading space included (only its
 * trailing spaces cannot be told from the tid's padding: they are
 * dropped). A tid of -1 (comm ":-1") is a thread perf knew nothing of,
 * one exiting in do_exit(). Return: the CPU, or -1 when @line does not
 * end in that shape. A frame line ends in
 * its "(dso)", so it is never taken for a header.
 */
static int parse_header(const char *line, char *comm, size_t len)
{
	const char *e = line + strlen(line), *d, *cpu_end;
	int cpu;

	d = back_digits(line, e); /* period */
	if (d == e)
		return -1;
	e = back_spaces(line, d);
	if (e == d || e == line || e[-1] != ']')
		return -1;
	cpu_end = e - 1;
	d = back_digits(line, cpu_end);
	if (d == cpu_end || d == line || d[-1] != '[' || cpu_end - d > 6)
		return -1;
	cpu = atoi(d);
	e = back_spaces(line, d - 1);
	if (e == d - 1)
		return -1;
	d = back_digits(line, e); /* tid */
	if (d == e)
		return -1;
	if (d > line && d[-1] == '-') /* -1: perf knew no thread (comm ":-1") */
		d--;
	if (d > line && d[-1] == '/') { /* pid/tid */
		e = d - 1;
		d = back_digits(line, e);
		if (d == e)
			return -1;
		if (d > line && d[-1] == '-')
			d--;
	}
	e = back_spaces(line, d);
	if (e == d)
		return -1; /* no space between the comm and the tid */
	if (e == line)
		snprintf(comm, len, "[unknown]"); /* an empty comm */
	else
		snprintf(comm, len, "%.*s", (int)(e - line), line);
	clean_name(comm);
	return cpu;
}

/*
 * The '(' that opens the dso of "sym (dso)", whose last character is
 * the dso's ')': the one that balances it (a path may hold parentheses,
 * "/opt/x (copy)/lib.so", " (deleted)"), preceded by a space. NULL when
 * there is none.
 */
static char *dso_open(char *sym, size_t len)
{
	char *p;
	int depth = 0;

	if (len < 3 || sym[len - 1] != ')')
		return NULL;
	for (p = sym + len - 1; p > sym; p--) {
		if (*p == ')')
			depth++;
		else if (*p == '(' && !--depth)
			return p[-1] == ' ' ? p : NULL;
	}
	return NULL;
}

/*
 * perf's "+0x1a" after a symbol (the offset into it, printed with the
 * symoff field or by a perf configured so) cut off: one function is one
 * frame whatever instruction was sampled. Cut while one is left, so no
 * frame ends in an offset ("f+0xe+0x1a" is f: no C symbol holds a '+').
 */
static void strip_offset(char *sym)
{
	char *plus, *p;

	while ((plus = strrchr(sym, '+')) && plus != sym && plus[1] == '0' && plus[2] == 'x' &&
	       plus[3]) {
		for (p = plus + 3; *p; p++)
			if (!isxdigit((unsigned char)*p))
				return;
		*plus = 0;
	}
}

/*
 * "\tip sym (dso)": *@sym and *@dso (NULL when the line has none) point
 * into @line. Return: 0, or -EBADMSG when @line is not that shape.
 */
static int parse_frame(char *line, char **sym, char **dso)
{
	char *p = line, *open;
	size_t len;

	if (!isspace((unsigned char)*p))
		return -EBADMSG;
	while (isspace((unsigned char)*p))
		p++;
	if (!isxdigit((unsigned char)*p))
		return -EBADMSG;
	while (isxdigit((unsigned char)*p))
		p++;
	if (*p && *p != ' ')
		return -EBADMSG;
	while (*p == ' ')
		p++;
	*sym = p;
	*dso = NULL;
	len = strlen(p);
	open = dso_open(p, len);
	if (open) {
		*dso = open + 1;
		p[len - 1] = 0;
		open[-1] = 0;
		rtrim(p);
	}
	strip_offset(p);
	if (!*p)
		*sym = "[unknown]";
	return 0;
}

/* Add a frame (the leaf first, as perf lists them) to the open sample. */
static int sample_frame(struct sample *s, const char *sym, const char *dso)
{
	if (s->nframes == MAX_FRAMES)
		return 0; /* deeper than any real stack: keep the leaf side */
	if (!s->nframes)
		snprintf(s->leaf_dso, sizeof(s->leaf_dso), "%s", dso ? dso : "[unknown]");
	s->frames[s->nframes] = strdup(sym);
	if (!s->frames[s->nframes])
		return -ENOMEM;
	clean_name(s->frames[s->nframes++]);
	return 0;
}

/* Open a sample on @cpu (its header read): kept when @cpu is recorded. */
static void sample_open(struct sample *s, int cpu, const char *comm,
			const struct xl_prof_cpu *cpus, int n)
{
	int i;

	snprintf(s->comm, sizeof(s->comm), "%s", comm);
	s->open = true;
	s->keep = !n;
	if (!n)
		snprintf(s->label, sizeof(s->label), "cpu%d", cpu);
	for (i = 0; i < n; i++)
		if (cpus[i].cpu == cpu) {
			xl_prof_cpu_label(&cpus[i], s->label, sizeof(s->label));
			s->keep = true;
		}
}

int xl_folded__parse_perf_script(struct xl_folded *f, FILE *in, const struct xl_prof_cpu *cpus,
				 int n, struct xl_perf_script_stats *st)
{
	struct xl_perf_script_stats stats = { 0 };
	struct sample s = { 0 };
	char comm[sizeof(s.comm)], *line = NULL, *sym, *dso;
	size_t cap = 0;
	int err = 0, cpu;

	while (!err && getline(&line, &cap, in) >= 0) {
		stats.lines++;
		rtrim(line);
		if (!*line) {
			err = sample_flush(f, &s);
		} else if ((cpu = parse_header(line, comm, sizeof(comm))) >= 0) {
			err = sample_flush(f, &s);
			sample_open(&s, cpu, comm, cpus, n);
		} else if (!s.open || parse_frame(line, &sym, &dso)) {
			/* Neither a header nor a frame of a sample: counted, skipped. */
			if (!stats.unparsed++)
				stats.first_unparsed = stats.lines;
			if (s.open && s.keep) /* its stack keeps its depth */
				err = sample_frame(&s, "[unparsed]", NULL);
		} else if (s.keep) {
			err = sample_frame(&s, sym, dso);
		}
	}
	free(line);
	if (!err)
		err = sample_flush(f, &s);
	sample_reset(&s);
	if (st)
		*st = stats;
	return err;
}

int xl_folded__read(struct xl_folded *f, FILE *in, unsigned long *bad_line)
{
	unsigned long lineno = 0;
	uint64_t total = 0;
	char *line = NULL, *sp, *end;
	size_t cap = 0, len;
	ssize_t got;
	int err = 0;

	while (!err && (got = getline(&line, &cap, in)) >= 0) {
		unsigned long long count;

		lineno++;
		len = (size_t)got;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = 0;
		if (!len)
			continue;
		/* A NUL inside the line, no count, or an empty stack: not ours. */
		sp = strrchr(line, ' ');
		if (strlen(line) != len || !sp || sp == line || !isdigit((unsigned char)sp[1])) {
			err = -EBADMSG;
			break;
		}
		errno = 0;
		count = strtoull(sp + 1, &end, 10);
		/* Counts that would wrap the total (the layout's positions) are refused too. */
		if (*end || errno || count > UINT64_MAX / 2 - total) {
			err = -EBADMSG;
			break;
		}
		total += count;
		*sp = 0;
		err = xl_folded__add(f, line, count, NULL, NULL, NULL);
	}
	free(line);
	if (err == -EBADMSG && bad_line)
		*bad_line = lineno;
	return err;
}
