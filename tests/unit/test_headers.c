// SPDX-License-Identifier: BSD-2-Clause
/*
 * test_headers.c - every public header, and the AF_XDP folder's private one,
 * in one translation unit (issue 11 item 13: include/xdplab/pcapfile.h and
 * the xsk frame allocator both declared a struct xl_frames, so no file could
 * include both). That it compiles is the test; the body checks the two
 * types are distinct.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "xdplab/attach.h"
#include "xdplab/bench.h"
#include "xdplab/gen.h"
#include "xdplab/lab.h"
#include "xdplab/log.h"
#include "xdplab/meter.h"
#include "xdplab/netlink.h"
#include "xdplab/pcapfile.h"
#include "xdplab/pkt.h"
#include "xdplab/redirect.h"
#include "xdplab/report.h"
#include "xdplab/stats.h"
#include "xdplab/sysstat.h"
#include "xdplab/xsk.h"
#include "xsk_priv.h"

static void test_both_frame_types(void **state)
{
	struct xl_pcap_frames capture = { 0 };
	struct xl_frames allocator = { 0 };

	/* Compiling this file is most of the test; what can also be checked
	 * at build time: the two are distinct types (they once had one name). */
	_Static_assert(!__builtin_types_compatible_p(struct xl_pcap_frames, struct xl_frames),
		       "the capture's and the allocator's frame lists are distinct types");
	(void)state;
	(void)capture;
	(void)allocator;
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_both_frame_types) };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
