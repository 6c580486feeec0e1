// SPDX-License-Identifier: BSD-2-Clause
/*
 * The rows of `lab run` (xdplab/labrows.h): one entry per row in table
 * order, and the measure functions that call the row families
 * (labrun_xdp.c, labrun_redirect.c, labrun_xsk.c).
 */
#include <stdio.h>
#include <string.h>

#include <linux/bpf.h>

#include "xdplab/hostrec.h"
#include "xdplab/labrows.h"
#include "xdplab/labrun_meter.h"
#include "xdplab/labrun_redirect.h"

static int m_ceiling(struct xl_lab *lab, const struct xl_labrun_opts *o, const struct xl_labrow *r,
		     const struct xl_labrow_run *run, struct xl_row_result *rows, int *made)
{
	*made = 1;
	return xl_labrun_ceiling(lab, o, run->size, rows);
}

static int m_xdp(struct xl_lab *lab, const struct xl_labrun_opts *o, const struct xl_labrow *r,
		 const struct xl_labrow_run *run, struct xl_row_result *rows, int *made)
{
	*made = 1;
	return xl_labrun_xdp(lab, o, r->action, r->op, run->mode, run->size, rows);
}

/* The row, then (@run->watch) what watching it costs: no monitor, errors, all; and at batch 1. */
static int m_redirect(struct xl_lab *lab, const struct xl_labrun_opts *o,
		      const struct xl_labrow *r, const struct xl_labrow_run *run,
		      struct xl_row_result *rows, int *made)
{
	int err = xl_labrun_redirect(lab, o, r->redir, XL_WATCH_NONE, run->size, rows);

	*made = 1;
	if (err || xl_labrow_nrows(r, o, run->watch) == 1)
		return err;
	/* The row's records before the watch-cost sets' plans forget them. */
	if (o->host)
		xl_hostrec__take(o->host, rows);
	*made = xl_labrow_nrows(r, o, run->watch);
	return xl_labrun_watch_cost(lab, o, run->size, rows + 1);
}

static int m_xsk(struct xl_lab *lab, const struct xl_labrun_opts *o, const struct xl_labrow *r,
		 const struct xl_labrow_run *run, struct xl_row_result *rows, int *made)
{
	*made = 1;
	return xl_labrun_xsk(lab, o, r->app, r->xsk_mode, r->zerocopy, run->size, rows);
}

/* The meter's own cost: drop no-touch with the CPU-time hook and without, interleaved. */
static int m_meter(struct xl_lab *lab, const struct xl_labrun_opts *o, const struct xl_labrow *r,
		   const struct xl_labrow_run *run, struct xl_row_result *rows, int *made)
{
	*made = XL_METER_COST_ROWS;
	return xl_labrun_meter_cost(lab, o, run->size, rows);
}

static int m_stack(struct xl_lab *lab, const struct xl_labrun_opts *o, const struct xl_labrow *r,
		   const struct xl_labrow_run *run, struct xl_row_result *rows, int *made)
{
	*made = 1;
	return xl_labrun_stack(lab, o, r->base, run->size, rows);
}

#define VETH_CEILING "needs the veth lab: the ceiling is the lab's own generator's rate"
#define VETH_REDIRECT \
	"needs the veth lab: its out pair is the redirect target whose far end counts the frames"
#define VETH_TXPUSH "needs the veth lab: AF_XDP txpush is counted at the veth peer"
#define VETH_L2FWD "needs the veth lab: AF_XDP l2fwd is counted at the veth peer"
#define VETH_METER "needs the veth lab: the two arms are paired on the lab's own generator"

#define DROP(opname, o)                                                                  \
	{ .name = "drop/" opname, .kind = "xdp", .flags = XL_LABROW_DROP, .action = XDP_DROP, \
	  .op = (o), .measure = m_xdp }
#define XSK(appname, a, m, zc, fl, why)                                                      \
	{ .name = "xsk-" appname, .kind = "xsk", .flags = (fl), .veth_why = (why), .app = (a), \
	  .xsk_mode = (m), .zerocopy = (zc), .measure = m_xsk }
#define XSK3(appname, a, fl, why)                                    \
	XSK(appname "/skb", a, XL_MODE_SKB, false, fl, why),          \
	XSK(appname "/drv", a, XL_MODE_NATIVE, false, fl, why),       \
	XSK(appname "/zc", a, XL_MODE_NATIVE, true, fl, why)

static const struct xl_labrow rows[] = {
	{ .name = "gen-ceiling", .kind = "gen", .flags = XL_LABROW_NEEDS_VETH,
	  .veth_why = VETH_CEILING, .measure = m_ceiling },
	DROP("no-touch", XL_OP_NO_TOUCH),
	DROP("read-data", XL_OP_READ_DATA),
	DROP("parse-ip", XL_OP_PARSE_IP),
	DROP("swap-macs", XL_OP_SWAP_MACS),
	{ .name = "pass", .kind = "xdp", .action = XDP_PASS, .op = XL_OP_NO_TOUCH,
	  .measure = m_xdp },
	{ .name = "tx", .kind = "xdp", .action = XDP_TX, .op = XL_OP_NO_TOUCH, .measure = m_xdp },
	{ .name = "redirect", .kind = "xdp",
	  .flags = XL_LABROW_NEEDS_VETH | XL_LABROW_OUT_PAIR | XL_LABROW_WATCH,
	  .veth_why = VETH_REDIRECT, .redir = XL_REDIR_DEVMAP, .measure = m_redirect },
	{ .name = "redirect-cpu", .kind = "xdp", .flags = XL_LABROW_NEEDS_VETH | XL_LABROW_OUT_PAIR,
	  .veth_why = VETH_REDIRECT, .redir = XL_REDIR_CPUMAP, .measure = m_redirect },
	XSK3("rxdrop", XL_XSK_RXDROP, 0, NULL),
	XSK3("txpush", XL_XSK_TXPUSH, XL_LABROW_NEEDS_VETH, VETH_TXPUSH),
	XSK3("l2fwd", XL_XSK_L2FWD, XL_LABROW_NEEDS_VETH, VETH_L2FWD),
	/* Not in make demo's time: nftables raw prerouting drop (no XDP), BPF at clsact ingress. */
	{ .name = "stack-drop", .kind = "stack", .flags = XL_LABROW_NAMED_ONLY,
	  .what = "nftables raw prerouting drop, no XDP", .base = XL_BASE_NFT, .measure = m_stack },
	{ .name = "tc-drop", .kind = "tc", .flags = XL_LABROW_NAMED_ONLY,
	  .what = "BPF at clsact ingress", .base = XL_BASE_TC, .measure = m_stack },
	/* The reflector xdp-bench tx runs by default: XDP_TX after swapping the MACs. */
	{ .name = "tx/swap-macs", .kind = "xdp", .flags = XL_LABROW_NAMED_ONLY,
	  .what = "XDP_TX after swapping the MACs, xdp-bench tx's default", .action = XDP_TX,
	  .op = XL_OP_SWAP_MACS, .measure = m_xdp },
	/* Issue 20: what the meter's DUT CPU-time hook costs, in the lab's wiring. */
	{ .name = "meter-cost", .kind = "xdp", .flags = XL_LABROW_NAMED_ONLY | XL_LABROW_NEEDS_VETH,
	  .what = "drop/no-touch with the softirq-time hook and without, interleaved",
	  .veth_why = VETH_METER, .nrows = XL_METER_COST_ROWS, .measure = m_meter },
};

#define NROWS ((int)(sizeof(rows) / sizeof(rows[0])))
_Static_assert(sizeof(rows) / sizeof(rows[0]) <= XL_LABROWS_MAX, "XL_LABROWS_MAX holds every row");

const struct xl_labrow *xl_labrow(int i)
{
	return i >= 0 && i < NROWS ? &rows[i] : NULL;
}

const char *const *xl_labrow_names(void)
{
	static const char *names[NROWS + 1];
	int i;

	if (!names[0])
		for (i = 0; i < NROWS; i++)
			names[i] = rows[i].name;
	return names;
}

char *xl_labrow_named_help(char *buf, size_t len)
{
	size_t n = 0;
	int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < NROWS && n < len; i++) {
		if (!(rows[i].flags & XL_LABROW_NAMED_ONLY))
			continue;
		n += snprintf(buf + n, len - n, "%s%s (%s)", n ? ", " : "", rows[i].name,
			      rows[i].what ? rows[i].what : rows[i].kind);
	}
	return buf;
}

int xl_labrow_nrows(const struct xl_labrow *r, const struct xl_labrun_opts *o, bool watch)
{
	return (r->nrows > 0 ? r->nrows : 1) + (watch && (r->flags & XL_LABROW_WATCH) ? xl_labrun_watch_rows(o) : 0);
}

bool xl_labrow_skip(const struct xl_labrow *r, const struct xl_lab *lab, uint32_t size,
		    struct xl_row_result *row)
{
	bool xsk = !strcmp(r->kind, "xsk");

	if (!(r->flags & XL_LABROW_NEEDS_VETH))
		return false;
	memset(row, 0, sizeof(*row));
	/* AF_XDP rows are named without their mode, as xl_labrun_xsk() names them. */
	if (xsk)
		snprintf(row->name, sizeof(row->name), "xsk-%s", xl_xsk_app_name(r->app));
	else
		snprintf(row->name, sizeof(row->name), "%s", r->name);
	row->kind = r->kind;
	row->mode = !xsk ? "native" : r->zerocopy ? "zc" : r->xsk_mode == XL_MODE_SKB ? "skb" : "native";
	row->size = size;
	row->wiring = xl_wiring_name(lab->wiring);
	row->napi_cpu = row->gen_cpu = -1;
	row->engine = "";
	row->judged = "";
	snprintf(row->note, sizeof(row->note), "skipped: %s", r->veth_why);
	return true;
}
