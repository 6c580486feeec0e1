// SPDX-License-Identifier: BSD-2-Clause
/*
 * An option's value checked and converted (xdplab/opts.h): whole numbers,
 * decimal numbers, seconds and choices in their ranges, and the one-line
 * message, escaped, when one is not.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/escape.h"
#include "xdplab/opts.h"
#include "opts_priv.h"

int xl_opts_verror(FILE *errf, const struct xl_cmd_spec *spec, const char *fmt, va_list ap)
{
	char small[2048], *msg = NULL, *out;
	va_list ap2;
	int n;

	/* The option's or the file's text in it is data: escaped, one line. */
	va_copy(ap2, ap);
	n = vasprintf(&msg, fmt, ap);
	if (n < 0) { /* out of memory: the message cut to fit */
		msg = NULL;
		vsnprintf(small, sizeof(small), fmt, ap2);
		n = strlen(small);
	}
	va_end(ap2);
	out = malloc(4 * (size_t)n + 1);
	if (out)
		fprintf(errf, "xdplab %s: %s\n", spec->name,
			xl_term_esc(out, 4 * (size_t)n + 1, msg ? msg : small, 0));
	else
		fprintf(errf, "xdplab %s: %s\n", spec->name, XL_ESC(msg ? msg : small));
	free(out);
	free(msg);
	return -EINVAL;
}

int xl_opts_u64(FILE *errf, const struct xl_cmd_spec *spec, const char *opt, const char *arg,
		uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!arg || !isdigit((unsigned char)arg[0]))
		goto out_nan;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end)
		goto out_nan;
	if (errno == ERANGE || v < min || v > max)
		return opts_error(errf, spec, "%s: '%s' is out of range (accepted: %llu..%llu)",
				      opt, arg, (unsigned long long)min,
				      (unsigned long long)max);
	*out = v;
	return 0;
out_nan:
	return opts_error(errf, spec, "%s: '%s' is not a whole number (accepted: %llu..%llu)",
			      opt, arg ? arg : "", (unsigned long long)min,
			      (unsigned long long)max);
}

/*
 * Digits with at most one point and at least one digit, then optionally
 * e or E, a sign and digits: what strtod() takes of a decimal number and
 * nothing else (no sign, blank, hex, "inf" or "nan").
 */
static bool decimal_ok(const char *s)
{
	size_t d = strspn(s, "0123456789");

	if (s[d] == '.')
		d += 1 + strspn(s + d + 1, "0123456789");
	if (!d || !strcmp(s, ".") || (s[0] == '.' && !isdigit((unsigned char)s[1])))
		return false;
	s += d;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!isdigit((unsigned char)*s))
			return false;
		s += strspn(s, "0123456789");
	}
	return !*s;
}

int xl_opts_real_as(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
		    const char *arg, const char *shown, double min, double max, double *out)
{
	bool neg = arg && arg[0] == '-';
	double v;

	if (!arg || !decimal_ok(arg + neg))
		return opts_error(errf, spec, "%s: '%s' is not a number (accepted: %.10g..%.10g)", opt,
				      shown ? shown : "", min, max);
	errno = 0;
	v = strtod(arg, NULL);
	/* "-0" is no number of ours; a figure beyond a double is out of range. */
	if (errno == ERANGE || (neg && v == 0) || v < min || v > max)
		return opts_error(errf, spec, "%s: '%s' is out of range (accepted: %.10g..%.10g)", opt,
				      shown, min, max);
	*out = v;
	return 0;
}

int xl_opts_seconds(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
		    const char *arg, double min, double max, uint64_t *out_ns)
{
	char *end;
	double v;

	if (!arg || !decimal_ok(arg))
		goto out_nan; /* decimal only: strtod would also take hex */
	errno = 0;
	v = strtod(arg, &end);
	if (*end || isnan(v))
		goto out_nan;
	if (errno == ERANGE || !isfinite(v))
		v = max * 2; /* reported as out of range below */
	if (v < min || v > max)
		return opts_error(errf, spec, "%s: '%s' is out of range (accepted: %.10g..%.10g seconds)",
				      opt, arg, min, max);
	*out_ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
out_nan:
	return opts_error(errf, spec, "%s: '%s' is not a number of seconds (accepted: %.10g..%.10g)",
			      opt, arg ? arg : "", min, max);
}

int xl_opts_choice(FILE *errf, const struct xl_cmd_spec *spec, const char *opt,
		   const char *arg, const char *const choices[])
{
	size_t len = 1;
	char *list;
	int i;

	for (i = 0; choices[i]; i++)
		if (!strcmp(arg, choices[i]))
			return i;
	for (i = 0; choices[i]; i++)
		len += strlen(choices[i]) + 2;
	list = calloc(1, len);
	for (i = 0; list && choices[i]; i++) {
		if (i)
			strcat(list, ", ");
		strcat(list, choices[i]);
	}
	opts_error(errf, spec, "%s: '%s' is not accepted (accepted: %s)", opt, arg,
		       list ? list : "(out of memory)");
	free(list);
	return -EINVAL;
}
