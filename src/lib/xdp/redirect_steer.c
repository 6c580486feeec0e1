// SPDX-License-Identifier: BSD-2-Clause
/*
 * redirect-cpu's steering words: the policy names (xdp-bench's
 * --program-mode words, so its users type what they know) and the CPU
 * list syntax "0,2-3" of --cpu.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/redirect.h"

static const char *const steer_names[XL_STEER__COUNT] = {
	[XL_STEER_DEFAULT] = "default",	 [XL_STEER_NO_TOUCH] = "no-touch",
	[XL_STEER_TOUCH] = "touch",	 [XL_STEER_ROUND_ROBIN] = "round-robin",
	[XL_STEER_L4_PROTO] = "l4-proto", [XL_STEER_L4_FILTER] = "l4-filter",
	[XL_STEER_L4_SPORT] = "l4-sport", [XL_STEER_L4_DPORT] = "l4-dport",
	[XL_STEER_L4_HASH] = "l4-hash",
};

const char *xl_steer_name(enum xl_steer s)
{
	return (unsigned)s < XL_STEER__COUNT ? steer_names[s] : "?";
}

int xl_steer_parse(const char *name)
{
	int i;

	for (i = XL_STEER_NO_TOUCH; i < XL_STEER__COUNT; i++)
		if (!strcmp(name, steer_names[i]))
			return i;
	return -EINVAL;
}

int xl_cpu_list_parse(const char *list, int *cpus, int max, int *n)
{
	const char *p = list;

	if (!*p)
		return -EINVAL;
	while (*p) {
		char *end;
		long lo, hi, c;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = hi = strtol(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtol(p, &end, 10);
		}
		if (hi < lo || hi > 65535)
			return -EINVAL;
		for (c = lo; c <= hi; c++) {
			if (*n >= max)
				return -E2BIG;
			cpus[(*n)++] = (int)c;
		}
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}
