// SPDX-License-Identifier: BSD-2-Clause
/* xdplab cleanup: remove what an older or killed xdplab left behind. */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "xdplab/atomicfile.h"
#include "xdplab/attach.h"
#include "xdplab/bench.h"
#include "xdplab/jitstate.h"
#include "xdplab/lab.h"
#include "xdplab/log.h"
#include "xdplab/nft.h"
#include "xdplab/pin_record.h"
#include "xdplab/tmpdir.h"
#include "xdplab/userprog.h"

enum { O_ALL, O_LABS };

static const struct xl_opt cleanup_opts[] = {
	{ "all", 'a', NULL, "also remove an XDP program that is not xdplab's", O_ALL },
	{ "labs", 'l', NULL, "remove every xdplab lab namespace (manual ones too)", O_LABS },
};

static const struct xl_cmd_spec cleanup_spec = {
	"cleanup", "[IFACE]",
	"Detach xdplab's XDP program from IFACE (even a pinned or foreign-held link), delete its tc-drop filters (and the clsact qdisc a killed tc-drop row made, when no other filter is on it) and the stack-drop tables of dead runs, and remove labs left by killed runs. Without IFACE: what killed runs left that belongs to no interface: their labs, their temporary directories (xdplab-ssh.PID.*, xdplab-perf.PID.* in $TMPDIR or /tmp), the maps they pinned (by name, or under run --pin-maps DIR: only a pin that is still the map the run made), the hidden temporaries (.NAME.PID.XXXXXX) of outputs they were writing and net.core.bpf_jit_kallsyms, restored to the value it had before a killed --profile run.",
	cleanup_opts, sizeof(cleanup_opts) / sizeof(cleanup_opts[0]),
};

struct cleanup_args {
	bool all, labs;
};

static int on_opt(int id, const char *arg, void *ctx)
{
	struct cleanup_args *a = ctx;

	if (id == O_ALL)
		a->all = true;
	else
		a->labs = true;
	return 0;
}

static void dir_removed(const char *path, pid_t pid, void *ctx)
{
	printf("removed %s (run %d ended)\n", XL_ESC(path), (int)pid);
}

static void pin_removed(const char *path, pid_t pid, void *ctx)
{
	printf("unpinned %s (run %d ended)\n", XL_ESC(path), (int)pid);
}

static void pin_kept(const char *path, pid_t pid, void *ctx)
{
	printf("left %s: another object than the map run %d pinned there\n", XL_ESC(path), (int)pid);
}

static void jit_restored(pid_t pid, int value, int written, void *ctx)
{
	if (written)
		printf("restored net.core.bpf_jit_kallsyms to %d (run %d ended)\n", value, (int)pid);
	else if (value < 0)
		printf("removed run %d's bpf_jit_kallsyms record: unreadable, not restored (set net.core.bpf_jit_kallsyms by hand)\n",
		       (int)pid);
	else
		printf("removed run %d's bpf_jit_kallsyms record (a live run restores it)\n", (int)pid);
}

/* What killed runs left on no interface: temporary files and directories, the JIT knob. */
static int dead_runs(void)
{
	static const char *const prefixes[] = { "xdplab-ssh", "xdplab-perf", NULL };
	int n, ret = XL_EXIT_OK;

	n = xl_run_dirs_sweep(prefixes, dir_removed, NULL);
	/* The temporary beside an output it was writing (xdplab/atomicfile.h). */
	if (n >= 0)
		n = xl_afile_sweep(dir_removed, NULL);
	if (n < 0) {
		char t[PATH_MAX + 8];

		xl_warn("cannot read %s: %s", xl_tmpdir_named(t, sizeof(t)), strerror(-n));
	}
	/* Own programs' pin-by-name maps of a killed run (xdplab/userprog.h). */
	n = xl_userprog_pins_sweep(dir_removed, NULL);
	if (n < 0)
		xl_warn("cannot read %s: %s", XL_USERPROG_PIN_ROOT, strerror(-n));
	/* The maps a killed run pinned under --pin-maps DIR (xdplab/pin_record.h). */
	n = xl_pin_record_sweep(pin_removed, pin_kept, NULL);
	if (n < 0)
		xl_warn("cannot read %s: %s", XL_RUN_STATE_DIR, strerror(-n));
	n = xl_jit_state_sweep(jit_restored, NULL);
	if (n < 0) {
		xl_err("cannot restore net.core.bpf_jit_kallsyms of a killed run: %s (run as root)",
		       strerror(-n));
		ret = XL_EXIT_RUNTIME;
	}
	return ret;
}

int cmd_cleanup(int argc, char **argv)
{
	struct cleanup_args a = { 0 };
	struct xl_xdp_holder h;
	int idx, ifindex, n, ret = XL_EXIT_OK;
	bool qdisc = false;
	char desc[256];

	idx = xl_opts_parse(&cleanup_spec, argc, argv, on_opt, &a);
	if (idx == XL_OPTS_HELP)
		return XL_EXIT_OK;
	if (idx < 0)
		return XL_EXIT_USAGE;
	if (idx < argc - 1) {
		xl_usage_error(&cleanup_spec, "one IFACE expected");
		return XL_EXIT_USAGE;
	}
	n = a.labs ? xl_lab_remove_all() : xl_lab_sweep();
	if (n > 0)
		printf("removed %d lab namespace(s)\n", n);
	if (idx == argc)
		return dead_runs();
	ifindex = if_nametoindex(argv[idx]);
	if (!ifindex) {
		xl_usage_error(&cleanup_spec, "interface '%s': no such interface", argv[idx]);
		return XL_EXIT_USAGE;
	}
	/* What a killed tc-drop or stack-drop row (lab run --dut) leaves. */
	n = xl_tc_cleanup(argv[idx], &qdisc);
	if (n > 0)
		printf("%s: deleted %d tc filter(s) of tc_bench_drop at clsact ingress\n",
		       XL_ESC(argv[idx]), n);
	if (qdisc)
		printf("%s: deleted the clsact qdisc a killed tc-drop row made\n", XL_ESC(argv[idx]));
	else if (n < 0 && n != -ENOENT)
		xl_warn("%s: cannot list its tc filters: %s", argv[idx], strerror(-n));
	n = xl_nft_sweep();
	if (n > 0)
		printf("deleted %d nftables table(s) xdplab_PID of dead runs\n", n);
	if (!xl_xdp_holder(ifindex, &h) && h.prog_id)
		xl_xdp_holder_describe(&h, desc, sizeof(desc));
	n = xl_xdp_cleanup(ifindex, a.all);
	if (n == 0) {
		printf("%s: no XDP program attached\n", XL_ESC(argv[idx]));
	} else if (n > 0) {
		printf("%s: detached %s\n", XL_ESC(argv[idx]), desc);
	} else if (n == -EPERM) {
		xl_err("%s: %s is not xdplab's; pass --all to remove it anyway", argv[idx], desc);
		ret = XL_EXIT_RUNTIME;
	} else {
		xl_err("%s: cannot detach: %s", argv[idx], strerror(-n));
		ret = XL_EXIT_RUNTIME;
	}
	return ret;
}
