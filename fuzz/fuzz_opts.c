// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the option parser (src/cmd/opts.c). The input is an
 * argv, words separated by NUL bytes, parsed against a table shaped like
 * the commands' (short and long options, values, a repeatable flag) with a
 * handler that runs the value parsers xl_parse_u64(), xl_parse_seconds()
 * and xl_parse_choice() on what it gets. Checks: the parse returns a
 * positional index inside argv, XL_OPTS_HELP or -EINVAL; getopt's state
 * survives for the next call. Its messages go to /dev/null. Built by `make fuzz`.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "opts.h"

enum { O_COUNT, O_SIZE, O_VERBOSE, O_MODE, O_INTERVAL, O_FORCE };

static const struct xl_opt opts[] = {
	{ "count", 'n', "N", "frames", O_COUNT, false },
	{ "size", 's', "BYTES", "bytes", O_SIZE, false },
	{ "verbose", 'v', NULL, "more", O_VERBOSE, true },
	{ "mode", 'm', "MODE", "native or skb", O_MODE, false },
	{ "interval", 'i', "SECONDS", "period", O_INTERVAL, false },
	{ "force", 0, NULL, "force", O_FORCE, false },
};
static const struct xl_cmd_spec spec = { "fuzz", "IFACE", "Fuzz.", opts, 6 };

static int on_opt(int id, const char *arg, void *ctx)
{
	static const char *const modes[] = { "native", "skb", "drv", NULL };
	uint64_t v, ns;

	switch (id) {
	case O_COUNT:
		return xl_parse_u64(&spec, "--count", arg, 0, UINT64_MAX, &v);
	case O_SIZE:
		return xl_parse_u64(&spec, "--size", arg, 60, 9216, &v);
	case O_MODE: {
		int c = xl_parse_choice(&spec, "--mode", arg, modes);

		return c < 0 ? c : 0;
	}
	case O_INTERVAL:
		return xl_parse_seconds(&spec, "--interval", arg, 0.1, 60, &ns);
	}
	return 0;
}

static int null_fd = -1, err_fd = -1;

/* stdout (--help) to /dev/null for good; stderr only around each parse,
 * so libFuzzer's own report still reaches it. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (!freopen("/dev/null", "w", stdout))
		abort();
	null_fd = open("/dev/null", O_WRONLY);
	err_fd = dup(STDERR_FILENO);
	if (null_fd < 0 || err_fd < 0)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[66];
	int argc = 1, r;
	size_t i, start = 0;

	if (size > 4096)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = "fuzz";
	for (i = 0; i <= size && argc < 65; i++)
		if (buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	argv[argc] = NULL;
	fflush(stderr);
	dup2(null_fd, STDERR_FILENO);
	r = xl_opts_parse(&spec, argc, argv, on_opt, NULL);
	fflush(stderr);
	dup2(err_fd, STDERR_FILENO);
	if (r != XL_OPTS_HELP && r != -EINVAL && (r < 1 || r > argc))
		abort();
	free(buf);
	return 0;
}
