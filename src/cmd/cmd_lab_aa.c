// SPDX-License-Identifier: BSD-2-Clause
/*
 * `xdplab lab run --aa N`: N separate runs of the same code, each a whole
 * `lab run` in a process of its own (its own lab, calibration and host
 * state), then the A/A calibration of the N files (xdplab/calib.h):
 * every flag between them is a false alarm. docs/compare.md "A/A
 * calibration".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "sig.h"
#include "lab_cli.h"
#include "xdplab/calib.h"
#include "xdplab/child.h"
#include "xdplab/compare_runs.h"
#include "xdplab/log.h"

/* The child's argv: ours without --aa and --json, with --json @path. */
static char **child_argv(int argc, char **argv, const char *path)
{
	char **v = calloc(argc + 6, sizeof(*v));
	int i, n = 0;

	if (!v)
		return NULL;
	v[n++] = "/proc/self/exe";
	v[n++] = "lab";
	v[n++] = argv[0];
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--aa") || !strcmp(argv[i], "--json") ||
		    !strcmp(argv[i], "-j")) {
			i++; /* and its value */
			continue;
		}
		if (!strncmp(argv[i], "--aa=", 5) || !strncmp(argv[i], "--json=", 7) ||
		    !strncmp(argv[i], "-j", 2))
			continue;
		v[n++] = argv[i];
	}
	v[n++] = "--json";
	v[n++] = (char *)path;
	return v;
}

int xl_cmd_run_xdplab(char **v)
{
	struct xl_child_opts o = { .err_fd = STDERR_FILENO, .out_to_err = true };
	struct xl_child c;
	int err = xl_child_spawn_opts(&c, v, &o);

	if (err)
		return err;
	while (!xl_child_exited(&c))
		if (xl_cmd_sleep_ns(100000000ull))
			return xl_child_stop(&c, SIGINT, 30000); /* the child tears its lab down */
	return WIFEXITED(c.status) ? WEXITSTATUS(c.status) : 128 + WTERMSIG(c.status);
}

int xl_cmd_lab_aa(int argc, char **argv, const struct run_args *a)
{
	struct xl_cmp_file *files;
	struct xl_calib c;
	char path[4096], err[1024];
	struct stat st;
	int i, n = 0, rc, ret = XL_EXIT_RUNTIME;

	if (mkdir(a->json, 0755) && errno != EEXIST) {
		xl_err("--aa: cannot create the directory %s: %s", a->json, strerror(errno));
		return XL_EXIT_RUNTIME;
	}
	if (stat(a->json, &st) || !S_ISDIR(st.st_mode)) {
		xl_err("--aa: %s is not a directory (--json names the runs' directory with --aa)",
		       a->json);
		return XL_EXIT_USAGE;
	}
	files = calloc(a->aa, sizeof(*files));
	if (!files) {
		xl_err("--aa: out of memory");
		return XL_EXIT_RUNTIME;
	}
	for (i = 0; i < a->aa; i++) {
		char **v;

		snprintf(path, sizeof(path), "%s/run-%d.json", a->json, i + 1);
		v = child_argv(argc, argv, path);
		if (!v) {
			xl_err("--aa: out of memory");
			goto out;
		}
		fprintf(stderr, "xdplab: lab run --aa %d: run %d of %d, a lab run of its own -> %s\n",
			a->aa, i + 1, a->aa, XL_ESC(path));
		rc = xl_cmd_run_xdplab(v);
		free(v);
		if (rc < 0) {
			xl_err("--aa: cannot start run %d: %s", i + 1, strerror(-rc));
			goto out;
		}
		if (xl_stop_requested) {
			xl_err("--aa: interrupted in run %d of %d; no calibration", i + 1, a->aa);
			goto out;
		}
		if (rc)
			xl_warn("--aa: run %d exited %d (its file keeps what it measured)", i + 1, rc);
		if (xl_cmp_load(path, &files[n], err, sizeof(err))) {
			xl_err("--aa: run %d: %s", i + 1, err);
			goto out;
		}
		n++;
	}
	rc = xl_cmp_runs_check(files, n, err, sizeof(err));
	if (rc) {
		xl_err("--aa: %s", err);
		goto out;
	}
	if (xl_calib_compute(files, n, XL_CMP_ALPHA_DEFAULT, &c)) {
		xl_err("--aa: out of memory");
		goto out;
	}
	snprintf(path, sizeof(path), "%s/calibration.json", a->json);
	rc = xl_calib_save(&c, path);
	if (rc) {
		xl_err("--aa: cannot write %s: %s", path, strerror(-rc));
	} else {
		xl_calib_print(stdout, &c, a->json);
		printf("written: %s (compare --calibration %s, or a directory of runs holding it)\n",
		       XL_ESC(path), XL_ESC(path));
		ret = XL_EXIT_OK;
	}
	xl_calib_free(&c);
out:
	for (i = 0; i < n; i++)
		xl_cmp_file_free(&files[i]);
	free(files);
	return ret;
}
