// SPDX-License-Identifier: BSD-2-Clause
/*
 * xdplab lab run --dut IFACE [--gen-host HOST --gen-iface IFACE]: the
 * lab's rows on a real interface, the generator on another host through
 * ssh or the user's own (docs/lab.md "On real hardware").
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "lab_dut.h"
#include "xdplab/genremote.h"
#include "xdplab/log.h"
#include "xdplab/nft.h"
#include "xdplab/pkt.h"

/* The --dut options' consistency. Return: 0 or -EINVAL (said). */
int xl_lab_dut_usage(const struct xl_cmd_spec *spec, const struct lab_dut_args *a, bool with_monitor)
{
	if (!a->dut && (a->gen_host || a->gen_iface || a->gen_xdplab || a->ssh_config))
		return xl_usage_error(spec, "--gen-host, --gen-iface, --gen-xdplab and --ssh-config go with --dut IFACE");
	if (a->dut && !a->gen_host != !a->gen_iface)
		return xl_usage_error(spec, "--gen-host HOST and --gen-iface IFACE go together (or neither: run your own generator)");
	if (a->dut && !a->gen_host && (a->gen_xdplab || a->ssh_config))
		return xl_usage_error(spec, "--gen-xdplab and --ssh-config go with --gen-host");
	if (a->dut && (a->wiring_set || a->cpus_set))
		return xl_usage_error(spec, "--wiring, --gen-cpu and --napi-cpu place the veth lab's NAPI and generator: a --dut interface keeps its own placement");
	if (a->dut && with_monitor)
		return xl_usage_error(spec, "--with-monitor and --with-monitor-floor measure the veth lab's redirect rows: not with --dut");
	return 0;
}

static int remote_start(void *ctx, uint32_t size, uint64_t max_ns)
{
	return xl_gen_remote__start(ctx, size, max_ns);
}

static int remote_stop(void *ctx)
{
	return xl_gen_remote__stop(ctx);
}

static bool remote_ended(void *ctx)
{
	return xl_gen_remote__ended(ctx);
}

/*
 * Open the --dut interface and its traffic source (the ssh generator,
 * checked with one round trip, or the user's) and write the header.
 * Return: 0 or -errno (said).
 */
int xl_lab_dut_open(const struct lab_dut_args *a, const struct xl_labrun_opts *o, struct xl_lab *lab,
		    struct xl_labrun_source *src, struct xl_gen_remote **remote, char *header, size_t len)
{
	char ip[INET_ADDRSTRLEN], mac[18];
	int err = xl_lab__open_device(lab, a->dut);

	if (err)
		return err;
	/* A killed run's stack-drop table (its pid is dead) goes first. */
	if (xl_nft_sweep() > 0)
		xl_info("deleted the nftables table of a killed run (xdplab_PID, its process is gone)");
	*src = (struct xl_labrun_source){ .engine = "external" };
	if (a->gen_host) {
		struct xl_gen_remote_opts ro = { .host = a->gen_host, .iface = a->gen_iface,
						 .xdplab = a->gen_xdplab, .ssh_config = a->ssh_config,
						 .dst_ip = lab->ip4[XL_LAB_DUT],
						 .dst_port = XL_LABRUN_UDP_DPORT };

		memcpy(ro.dst_mac, lab->mac[XL_LAB_DUT], 6);
		*remote = xl_gen_remote__new(&ro);
		err = *remote ? xl_gen_remote__check(*remote) : -errno;
		if (err) {
			xl_gen_remote__free(*remote); /* its temporary directory too */
			*remote = NULL;
			xl_lab__destroy(lab);
			return err;
		}
		*src = (struct xl_labrun_source){ .start = remote_start, .stop = remote_stop,
						  .ended = remote_ended, .ctx = *remote,
						  .engine = "ssh" };
	}
	inet_ntop(AF_INET, &lab->ip4[XL_LAB_DUT], ip, sizeof(ip));
	xl_mac_format(lab->mac[XL_LAB_DUT], mac);
	snprintf(header, len,
		 "xdplab lab run: DUT %s (this netns, %d queue%s, %s, frames to %s udp/%d), wiring device (its own NAPI placement, unchanged);\n"
		 "generator: %s%s;\n"
		 "%d reps x %.2g s after %.2g s warm-up (each waits up to %.0f s for the first frame), medians; "
		 "'valid' needs the judged CPU (the one that counted most frames) >= %.0f%% busy; "
		 "check = our count vs %s's rx_queue_N_xdp_packets where the driver has them",
		 lab->ifname[XL_LAB_DUT], lab->queues, lab->queues > 1 ? "s" : "", mac, ip,
		 XL_LABRUN_UDP_DPORT,
		 *remote ? xl_gen_remote__describe(*remote) : "external (run your own; xdplab measures what arrives)",
		 *remote ? ", started and stopped per repetition" : "", o->reps,
		 o->seconds_ns / 1e9, o->warmup_ns / 1e9, XL_LABRUN_ARRIVE_NS / 1e9,
		 XL_SATURATED_SHARE * 100, lab->ifname[XL_LAB_DUT]);
	return 0;
}
