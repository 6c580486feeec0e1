// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the frame parser. xl_pkt_parse() (user space) and the
 * network-layer walk it shares with the BPF programs, xl_parse_l3()
 * (include/xdplab/abi/parse.h), on arbitrary frames. Checks their
 * promises: no read past the frame (ASan, the input is an exact-size heap
 * copy), offsets inside the frame, the two agree on L3 and L4, and a
 * frame parsed OK is parsed the same after any bytes past its IP length
 * are cut (they are padding). Built by `make fuzz`.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/abi/parse.h"
#include "xdplab/pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xl_pkt_info info, again;
	struct xl_l3_info l3;
	uint8_t *f;
	int r, r3;

	if (size > 65535)
		return 0;
	f = malloc(size ? size : 1);
	if (!f)
		abort();
	memcpy(f, data, size);
	r = xl_pkt_parse(f, size, &info);
	if (r != 0 && r != -EPROTONOSUPPORT && r != -EBADMSG)
		abort();
	if (info.l3_off > size || info.l4_off > size || info.vlans > 2)
		abort();
	if (size >= 14) {
		r3 = xl_parse_l3(f, f + size, &l3);
		if ((r == -EPROTONOSUPPORT) != (r3 == XL_PARSE_NOT_IP))
			abort();
		if (r == 0 && (r3 != XL_PARSE_OK || l3.l4_off != info.l4_off ||
			       l3.l4_proto != info.l4_proto || l3.l3_off != info.l3_off))
			abort();
		if (r3 == XL_PARSE_OK && (l3.ip_end > size || l3.l4_off > l3.ip_end))
			abort();
		/* Cut the Ethernet padding: the same parse. */
		if (r == 0 && l3.ip_end >= 14 && l3.ip_end < size) {
			if (xl_pkt_parse(f, l3.ip_end, &again) != 0 ||
			    again.l4_off != info.l4_off || again.src_port != info.src_port ||
			    again.dst_port != info.dst_port || again.l4_csum_ok != info.l4_csum_ok)
				abort();
		}
	}
	free(f);
	return 0;
}
