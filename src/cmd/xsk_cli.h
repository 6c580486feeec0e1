/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/cmd/cmd_xsk.c and cmd_xsk_run.c: the parsed options of
 * `xdplab xsk` and the measured run that reports them.
 */
#ifndef XDPLAB_XSK_CLI_H
#define XDPLAB_XSK_CLI_H

#include "cmd.h"
#include "report_cli.h"
#include "profile_cli.h"
#include "xdplab/xsk.h"

struct xsk_args {
	const struct xl_cmd_spec *spec; /* set once parsed (the defaults are copied over the rest) */
	struct xl_xsk_config c;
	uint64_t interval_ns, duration_ns;
	bool extended, quiet, copy_seen, zc_seen, copy_mode_seen, wakeup_seen, nowakeup_seen, poll_seen, spin_seen, busy_seen;
	bool wait_chosen; /* --poll, --spin or --busy-poll given (else the default) */
	bool frames_seen;
	bool rings_seen; /* --rx-size or --fill-size given (else by placement) */
	const char *netns, *src_mac, *dst_mac, *json;
	bool src_ip_set, dst_ip_set;
	bool vlan_tag, vlan_id_seen, vlan_pri_seen; /* -V, -J, -K (xdpsock's) */
	uint32_t vlan_id, vlan_pri;
	struct xl_cmd_prof prof;
	int reps;
	int dump_format; /* --format: 0 not given (by the file name), 1 pcap, 2 pcapng */
};

/**
 * xl_cmd_xsk_run() - run the application @app built from @a until the
 * duration ends or a signal stops it: interval lines, the totals, the
 * profile, the verdict into @row, --dump's and --audit's outcome; the
 * records for --json into @rec (NULL: none).
 * Return: XL_EXIT_OK or XL_EXIT_RUNTIME (the reason printed).
 */
int xl_cmd_xsk_run(struct xsk_args *a, struct xl_xsk_app *app, struct xl_row_result *row,
		   struct xl_interval_recs *rec);

#endif /* XDPLAB_XSK_CLI_H */
