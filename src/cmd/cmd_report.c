// SPDX-License-Identifier: BSD-2-Clause
/* xdplab report RUN.json [BASE.json] -o FILE: the HTML page of a run (docs/report.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "xdplab/htmlreport.h"
#include "xdplab/log.h"

enum { O_OUTPUT };

static const struct xl_opt report_opts[] = {
	{ "output", 'o', "FILE", "the HTML file to write (default report.html)", O_OUTPUT },
};

static const struct xl_cmd_spec report_spec = {
	"report", "RUN.json [BASE.json]",
	"Write one self-contained HTML page of a lab run: environment, charts, table, latency rows, flame graphs; with BASE.json the comparison.",
	report_opts, sizeof(report_opts) / sizeof(report_opts[0]),
};

static int on_opt(int id, const char *arg, void *ctx)
{
	if (id != O_OUTPUT)
		return -EINVAL;
	*(const char **)ctx = arg;
	return 0;
}

/* Whether @out is the file @in (the same inode): writing it would replace the results. */
static bool same_file(const char *out, const char *in)
{
	struct stat so, si;

	if (!strcmp(out, in))
		return true;
	return !stat(out, &so) && !stat(in, &si) && so.st_dev == si.st_dev && so.st_ino == si.st_ino;
}

int cmd_report(int argc, char **argv)
{
	const char *out = "report.html";
	char err[512] = "";
	int idx, ret, i;

	idx = xl_opts_parse(&report_spec, argc, argv, on_opt, &out);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (argc - idx < 1 || argc - idx > 2) {
		xl_usage_error(&report_spec, "RUN.json and at most one BASE.json expected (got %d files)",
			       argc - idx);
		return XL_EXIT_USAGE;
	}
	for (i = idx; i < argc; i++)
		if (same_file(out, argv[i])) {
			xl_usage_error(&report_spec, "-o %s: is the input %s (accepted: another file; the results would be replaced by the page)",
				       out, argv[i]);
			return XL_EXIT_USAGE;
		}
	ret = xl_html_report(argv[idx], argc - idx == 2 ? argv[idx + 1] : NULL, out, err, sizeof(err));
	if (ret == -EIO || ret == -ENOMEM) {
		fprintf(stderr, "xdplab report: %s\n", err[0] ? XL_ESC(err) : strerror(-ret));
		return XL_EXIT_RUNTIME;
	}
	if (ret) {
		xl_usage_error(&report_spec, "%s", err);
		return XL_EXIT_USAGE;
	}
	printf("report: %s\n", XL_ESC(out));
	return XL_EXIT_OK;
}
