/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lab_dut.h - `xdplab lab run --dut`, between src/cmd/cmd_lab.c (options,
 * the table) and src/cmd/cmd_lab_dut.c (the interface, the traffic source,
 * the rows that need the veth lab). CLI only.
 */
#ifndef XDPLAB_CMD_LAB_DUT_H
#define XDPLAB_CMD_LAB_DUT_H

#include <stdbool.h>
#include <stddef.h>

#include "opts.h"
#include "xdplab/genremote.h"
#include "xdplab/lab.h"
#include "xdplab/labrun.h"
#include "xdplab/report.h"

/**
 * struct lab_dut_args - the --dut options as given.
 * @dut: --dut IFACE (NULL: the veth lab); @gen_host/@gen_iface/@gen_xdplab/
 * @ssh_config: --gen-host, --gen-iface, --gen-xdplab, --ssh-config (NULL:
 * not given); @wiring_set/@cpus_set: --wiring, --gen-cpu or --napi-cpu
 * was given (they are the veth lab's).
 */
struct lab_dut_args {
	const char *dut, *gen_host, *gen_iface, *gen_xdplab, *ssh_config;
	bool wiring_set, cpus_set;
};

/**
 * xl_lab_dut_usage() - the --dut options' consistency with each other and
 * with @with_monitor. Return: 0, or -EINVAL (said in one line, @spec's).
 */
int xl_lab_dut_usage(const struct xl_cmd_spec *spec, const struct lab_dut_args *a,
		     bool with_monitor);

/**
 * xl_lab_dut_open() - open the --dut interface as @lab
 * (xl_lab__open_device()), delete a killed run's nftables table, make the
 * traffic source @src (the ssh generator in *@remote, checked with one
 * round trip, freed by the caller with xl_gen_remote__free(); or the
 * user's) and write the table's header (@len bytes) for @o.
 * Return: 0 or -errno (said; nothing left open).
 */
int xl_lab_dut_open(const struct lab_dut_args *a, const struct xl_labrun_opts *o, struct xl_lab *lab,
		    struct xl_labrun_source *src, struct xl_gen_remote **remote, char *header,
		    size_t len);

#endif /* XDPLAB_CMD_LAB_DUT_H */
