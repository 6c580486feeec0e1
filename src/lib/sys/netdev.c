// SPDX-License-Identifier: BSD-2-Clause
/* A device's counters from /proc/net/dev (xdplab/netdev.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "xdplab/netdev.h"

int xl_netdev_tx_packets_from(FILE *f, const char *ifname, uint64_t *out)
{
	char line[512];
	size_t n = strlen(ifname);

	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[10];
		char *p = line;

		while (*p == ' ')
			p++;
		if (strncmp(p, ifname, n) || p[n] != ':')
			continue;
		/* rx: bytes packets errs drop fifo frame compressed multicast; tx: bytes packets */
		if (sscanf(p + n + 1, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
			   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) != 10)
			return -EPROTO;
		*out = v[9];
		return 0;
	}
	return -ENODEV;
}

int xl_netdev_tx_packets(const char *ifname, uint64_t *out)
{
	FILE *f = fopen("/proc/thread-self/net/dev", "r");
	int err;

	if (!f)
		return -errno;
	err = xl_netdev_tx_packets_from(f, ifname, out);
	fclose(f);
	return err;
}
