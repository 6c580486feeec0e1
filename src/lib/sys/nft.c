// SPDX-License-Identifier: BSD-2-Clause
/*
 * The kernel-stack baseline's nftables rule, through libnftables: the same
 * commands a user would give `nft`, run in process; the counter is read as
 * nft's JSON output (`list chain`), parsed with jansson.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <nftables/libnftables.h>

#include "xdplab/log.h"
#include "xdplab/nft.h"
#include "xdplab/percpu.h"

struct xl_nft_drop {
	struct nft_ctx *ctx;
	char table[32];
};

/* Run @cmd; on failure log nft's first error line. Return: 0 or -EIO. */
static int run(struct xl_nft_drop *n, const char *cmd)
{
	const char *e;

	if (!nft_run_cmd_from_buffer(n->ctx, cmd))
		return 0;
	e = nft_ctx_get_error_buffer(n->ctx);
	xl_err("nft '%.*s': %.*s", (int)strcspn(cmd, "\n"), cmd,
	       e ? (int)strcspn(e, "\n") : 0, e ? e : "");
	return -EIO;
}

struct xl_nft_drop *xl_nft_drop__create(uint16_t udp_dport)
{
	struct xl_nft_drop *n = calloc(1, sizeof(*n));
	char cmd[512];
	int err;

	if (!n)
		return NULL;
	snprintf(n->table, sizeof(n->table), "xdplab_%d", (int)getpid());
	n->ctx = nft_ctx_new(NFT_CTX_DEFAULT);
	if (!n->ctx) {
		free(n);
		errno = ENOMEM;
		return NULL;
	}
	nft_ctx_buffer_output(n->ctx);
	nft_ctx_buffer_error(n->ctx);
	/* The first command opens the netlink socket, here (this netns). */
	snprintf(cmd, sizeof(cmd), "list table inet %s", n->table);
	if (!nft_run_cmd_from_buffer(n->ctx, cmd)) {
		xl_err("nft: table inet %s exists already", n->table);
		err = -EEXIST;
		goto out_free;
	}
	nft_ctx_get_error_buffer(n->ctx); /* empty it: "No such file or directory" */
	snprintf(cmd, sizeof(cmd),
		 "add table inet %s\n"
		 "add chain inet %s pre { type filter hook prerouting priority raw; policy accept; }\n"
		 "add rule inet %s pre udp dport %u counter drop\n",
		 n->table, n->table, n->table, udp_dport);
	err = run(n, cmd);
	if (err)
		goto out_free;
	nft_ctx_output_set_flags(n->ctx, NFT_CTX_OUTPUT_JSON);
	return n;
out_free:
	nft_ctx_free(n->ctx);
	free(n);
	errno = -err;
	return NULL;
}

int xl_nft_counter_parse(const char *json, uint64_t *packets, uint64_t *bytes)
{
	json_t *doc = json_loads(json ? json : "", 0, NULL), *items, *it;
	size_t i, j;
	int found = 0;

	items = json_object_get(doc, "nftables");
	json_array_foreach(items, i, it) {
		json_t *expr = json_object_get(json_object_get(it, "rule"), "expr"), *e;

		json_array_foreach(expr, j, e) {
			json_t *c = json_object_get(e, "counter");

			if (!json_is_object(c))
				continue;
			if (!found++) {
				*packets = json_integer_value(json_object_get(c, "packets"));
				*bytes = json_integer_value(json_object_get(c, "bytes"));
			}
		}
	}
	json_decref(doc);
	return found == 1 ? 0 : -EPROTO;
}

int xl_nft_drop__counter(struct xl_nft_drop *n, uint64_t *packets, uint64_t *bytes)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "list chain inet %s pre", n->table);
	if (run(n, cmd))
		return -EIO;
	return xl_nft_counter_parse(nft_ctx_get_output_buffer(n->ctx), packets, bytes);
}

int xl_nft_drop__read(void *ctx, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu)
{
	uint64_t packets, bytes;
	int err = xl_nft_drop__counter(ctx, &packets, &bytes);

	if (err)
		return err;
	memset(total, 0, sizeof(*total));
	total->rx_packets = packets;
	total->rx_bytes = bytes;
	total->actions[1 /* XDP_DROP */] = packets;
	if (per_cpu)
		memset(per_cpu, 0, xl_bench_detail_ncpus() * sizeof(*per_cpu));
	return 0;
}

const char *xl_nft_drop__table(const struct xl_nft_drop *n)
{
	return n->table;
}

void xl_nft_drop__destroy(struct xl_nft_drop *n)
{
	char cmd[64];

	if (!n)
		return;
	snprintf(cmd, sizeof(cmd), "delete table inet %s", n->table);
	run(n, cmd);
	nft_ctx_free(n->ctx);
	free(n);
}

int xl_nft_sweep(void)
{
	struct nft_ctx *ctx = nft_ctx_new(NFT_CTX_DEFAULT);
	json_t *doc, *it;
	size_t i;
	int n = 0;

	if (!ctx)
		return -ENOMEM;
	nft_ctx_buffer_output(ctx);
	nft_ctx_buffer_error(ctx);
	nft_ctx_output_set_flags(ctx, NFT_CTX_OUTPUT_JSON);
	if (nft_run_cmd_from_buffer(ctx, "list tables inet")) {
		nft_ctx_free(ctx);
		return -EIO;
	}
	doc = json_loads(nft_ctx_get_output_buffer(ctx), 0, NULL);
	json_array_foreach(json_object_get(doc, "nftables"), i, it) {
		const char *name = json_string_value(json_object_get(json_object_get(it, "table"), "name"));
		char cmd[96], proc[32], *end;
		long pid;

		if (!name || strncmp(name, "xdplab_", 7))
			continue;
		pid = strtol(name + 7, &end, 10);
		snprintf(proc, sizeof(proc), "/proc/%ld", pid);
		if (*end || pid <= 0 || !access(proc, F_OK))
			continue; /* not ours, or its run is alive */
		snprintf(cmd, sizeof(cmd), "delete table inet %s", name);
		if (!nft_run_cmd_from_buffer(ctx, cmd))
			n++;
	}
	json_decref(doc);
	nft_ctx_free(ctx);
	return n;
}
