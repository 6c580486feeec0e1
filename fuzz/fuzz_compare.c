// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the results-JSON reader of `xdplab compare`,
 * xl_cmp_load() (jansson underneath), on arbitrary bytes written to a
 * memfd and read through its path, then compared with itself
 * (xl_cmp_run, and xl_cmp_lat_run for the latency rows) so every row's
 * fields are used. Checks: a load either
 * fails with one of its documented errors and a message, or gives rows
 * that free cleanly. Built by `make fuzz`.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xdplab/compare.h"
#include "xdplab/log.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	xl_log_set_level(XL_LOG_SILENT);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct xl_cmp_file f;
	char path[64], err[512] = "";
	int r;

	if (fd < 0)
		fd = memfd_create("fuzz.json", 0);
	if (fd < 0 || ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	memset(&f, 0, sizeof(f));
	r = xl_cmp_load(path, &f, err, sizeof(err));
	if (r) {
		if (r != -ENOENT && r != -EINVAL && r != -EPROTO && r != -ENOMEM)
			abort();
		if (!err[0])
			abort();
		return 0;
	}
	if (f.nrows < 0 || (f.nrows && !f.rows))
		abort();
	{
		struct xl_cmp_opts o = { .alpha = 0.05, .threshold_ns = 1 };
		struct xl_cmp_result res;

		memset(&res, 0, sizeof(res));
		struct xl_cmp_latresult lr;

		if (!xl_cmp_run(&f, &f, &o, &res))
			xl_cmp_result_free(&res);
		/* The latency rows against themselves: every pair compared. */
		if (f.nlat < 0 || (f.nlat && !f.lat))
			abort();
		if (!xl_cmp_lat_run(&f, &f, &o, &lr)) {
			if (lr.paired != f.nlat || lr.rose)
				abort();
			xl_cmp_latresult_free(&lr);
		}
	}
	xl_cmp_file_free(&f);
	return 0;
}
