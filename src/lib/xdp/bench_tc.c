// SPDX-License-Identifier: BSD-2-Clause
/*
 * The tc-drop benchmark row's hook (bench.c loads its program): the
 * clsact qdisc and the filter running tc_bench_drop, attached and deleted
 * without taking another's filter with them, and `xdplab cleanup`'s part
 * for what a killed row left (xl_tc_cleanup()). The filters on a device
 * are read with `tc -j filter show` (an argv vector, no shell).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>

#include <bpf/libbpf.h>

#include <jansson.h>

#include "xdplab/bench.h"
#include "xdplab/child.h"
#include "xdplab/log.h"
#include "xdplab/netns.h"
#include "xdplab/tmpdir.h"
#include "bench_priv.h"
#include "tc_mark.h"

/* `tc -j filter show dev @ifname @dir` parsed into *@doc (NULL when empty). */
static int tc_filters(const char *ifname, const char *dir, json_t **doc)
{
	char *argv[] = { "tc", "-j", "filter", "show", "dev", (char *)ifname, (char *)dir, NULL };
	struct xl_child c;
	int err;

	*doc = NULL;
	err = xl_child_spawn(&c, argv, XL_CHILD_STDOUT_PIPE, NULL);
	if (err)
		return err;
	*doc = json_loadfd(c.stdout_fd, JSON_DISABLE_EOF_CHECK, NULL);
	err = xl_child_stop(&c, 0, 5000);
	if (err) {
		json_decref(*doc);
		*doc = NULL;
		return err < 0 ? err : -EIO;
	}
	return 0;
}

/* Whether a filter of `tc -j filter show` runs our tc_bench_drop. */
static bool tc_filter_ours(json_t *f)
{
	json_t *o = json_object_get(f, "options");
	const char *name = json_string_value(json_object_get(json_object_get(o, "prog"), "name"));

	return name && !strcmp(name, "tc_bench_drop");
}

/*
 * The filters in @doc that do not run tc_bench_drop: the entries with
 * options (tc lists a header entry per pref and kind without them).
 */
static int tc_filters_other(json_t *doc)
{
	json_t *f;
	size_t i;
	int n = 0;

	json_array_foreach(doc, i, f)
		n += json_object_get(f, "options") && !tc_filter_ours(f);
	return n;
}

/*
 * Delete the clsact qdisc of @ifindex (@ifname in the calling thread's
 * netns) when no filter but tc_bench_drop's (ours, or a killed run's) is
 * on it at ingress or egress: another's would go with it (the user may add
 * one to a qdisc we made). Return: 1 deleted, 0 kept (other filters are on
 * it), -errno.
 */
static int tc_hook_destroy_empty(const char *ifname, int ifindex)
{
	struct bpf_tc_hook hook = { .sz = sizeof(hook), .ifindex = ifindex,
				    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS };
	json_t *in, *eg = NULL;
	int err, left;

	err = tc_filters(ifname, "ingress", &in);
	if (!err)
		err = tc_filters(ifname, "egress", &eg);
	left = tc_filters_other(in) + tc_filters_other(eg);
	json_decref(in);
	json_decref(eg);
	if (err)
		return err;
	if (left)
		return 0;
	err = bpf_tc_hook_destroy(&hook);
	return err ? err : 1;
}

/*
 * The end of the clsact qdisc we made or took over (b->tc_hook_made): deleted
 * unless another filter is on it, and its mark removed either way.
 */
static void tc_hook_release(struct xl_bench *b, const char *ifname)
{
	int err = tc_hook_destroy_empty(ifname, b->ifindex);

	if (err == 0)
		xl_warn("interface %s: its clsact qdisc is kept: other filters are on it", ifname);
	else if (err < 0)
		xl_warn("interface %s: cannot delete the clsact qdisc it made: %s", ifname,
			strerror(-err));
	xl_tc_mark_clear(b->tc_mark);
}

/*
 * The clsact ingress hook: make the qdisc if there is none (-EEXIST: keep
 * the one there and leave it at destroy, unless a killed run of ours made
 * it: its mark says so, and we take it over), then one filter running
 * @prog_fd in direct-action mode. The qdisc we made or took over is marked
 * (tc_mark.h) until its end, where it is deleted only when no other filter
 * than tc_bench_drop's is on it (tc_hook_release()). Return: 0 or -errno.
 */
int xl_bench_tc_attach(struct xl_bench *b, int prog_fd, const char *ifname)
{
	int err;

	b->hook = (struct bpf_tc_hook){ .sz = sizeof(b->hook), .ifindex = b->ifindex,
					.attach_point = BPF_TC_INGRESS };
	b->tc_opts = (struct bpf_tc_opts){ .sz = sizeof(b->tc_opts), .prog_fd = prog_fd };
	err = bpf_tc_hook_create(&b->hook);
	if (err && err != -EEXIST) {
		xl_err("interface %s: cannot add a clsact qdisc: %s", ifname, strerror(-err));
		return err;
	}
	b->tc_hook_made = !err || xl_tc_mark_take_dead(b->ifindex) > 0;
	if (b->tc_hook_made && xl_tc_mark_set(b->ifindex, b->tc_mark, sizeof(b->tc_mark)))
		xl_warn("interface %s: cannot mark its clsact qdisc in %s (a killed run leaves it)",
			ifname, XL_RUN_STATE_DIR);
	err = bpf_tc_attach(&b->hook, &b->tc_opts);
	if (err) {
		xl_err("interface %s: cannot attach the tc program at clsact ingress: %s", ifname,
		       strerror(-err));
		if (b->tc_hook_made)
			tc_hook_release(b, ifname);
		return err;
	}
	b->tc_ns_fd = xl_netns_self();
	return 0;
}

/* Delete the filter (and the qdisc we made) from the netns they are in. */
void xl_bench_tc_detach(struct xl_bench *b)
{
	struct xl_netns_saved saved;
	bool moved = !xl_netns_enter_fd(b->tc_ns_fd, &saved);
	struct bpf_tc_opts o = { .sz = sizeof(o), .handle = b->tc_opts.handle,
				 .priority = b->tc_opts.priority };
	int err;

	err = bpf_tc_detach(&b->hook, &o);
	if (err)
		xl_warn("ifindex %d: cannot delete the tc filter: %s", b->ifindex, strerror(-err));
	if (b->tc_hook_made)
		tc_hook_release(b, b->ifname);
	if (moved)
		xl_netns_restore(&saved);
	if (b->tc_ns_fd >= 0)
		close(b->tc_ns_fd);
}

/*
 * The clsact qdisc of @ifindex, made by a killed run (its mark), deleted
 * when no filter is left on it at ingress or egress (another's would go
 * with it). Return: 1 deleted, 0 not ours or kept, -errno.
 */
static int tc_qdisc_cleanup(const char *ifname, int ifindex)
{
	int err;

	if (xl_tc_mark_take_dead(ifindex) <= 0)
		return 0;
	err = tc_hook_destroy_empty(ifname, ifindex);
	if (!err)
		xl_warn("%s: the clsact qdisc a killed tc-drop row made is kept: other filters are on it",
			ifname);
	return err;
}

int xl_tc_cleanup(const char *ifname, bool *qdisc_deleted)
{
	json_t *doc, *f;
	size_t i;
	int ifindex = if_nametoindex(ifname), err, n = 0;

	*qdisc_deleted = false;
	if (!ifindex)
		return -ENODEV;
	err = tc_filters(ifname, "ingress", &doc);
	if (err)
		return err;
	json_array_foreach(doc, i, f) {
		json_t *o = json_object_get(f, "options");
		const char *handle = json_string_value(json_object_get(o, "handle"));
		struct bpf_tc_hook hook = { .sz = sizeof(hook), .ifindex = ifindex,
					    .attach_point = BPF_TC_INGRESS };
		struct bpf_tc_opts to = { .sz = sizeof(to) };

		if (!handle || !tc_filter_ours(f))
			continue;
		to.handle = strtoul(handle, NULL, 0);
		to.priority = json_integer_value(json_object_get(f, "pref"));
		err = bpf_tc_detach(&hook, &to);
		if (err) {
			xl_err("%s: cannot delete the tc filter of tc_bench_drop (pref %u, handle %s): %s",
			       ifname, to.priority, handle, strerror(-err));
			json_decref(doc);
			return err;
		}
		n++;
	}
	json_decref(doc);
	err = tc_qdisc_cleanup(ifname, ifindex);
	if (err < 0) {
		xl_err("%s: cannot delete the clsact qdisc a killed tc-drop row made: %s", ifname,
		       strerror(-err));
		return err;
	}
	*qdisc_deleted = err > 0;
	return n;
}
