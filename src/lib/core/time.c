// SPDX-License-Identifier: BSD-2-Clause
/* The monotonic clock and the interruptible sleep (see xdplab/time.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xdplab/time.h"

/* The longest single nap: the latency of seeing a stop flag set elsewhere. */
#define XL_NAP_MAX_NS 50000000ull

uint64_t xl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int xl_sleep_ns(uint64_t ns, volatile sig_atomic_t *stop)
{
	uint64_t end = xl_now_ns() + ns;

	for (;;) {
		uint64_t now, step;
		struct timespec ts;

		if (stop && *stop)
			return 1;
		now = xl_now_ns();
		if (now >= end)
			return 0;
		step = end - now > XL_NAP_MAX_NS ? XL_NAP_MAX_NS : end - now;
		ts.tv_sec = step / 1000000000ull;
		ts.tv_nsec = step % 1000000000ull;
		nanosleep(&ts, NULL);
	}
}

int xl_timens_mono_off_parse(const char *buf, int64_t *off_ns)
{
	const char *p = buf;
	int64_t sec, nsec;
	char name[16];
	int used;

	while (p && *p) {
		if (sscanf(p, "%15s %" SCNd64 " %" SCNd64 "%n", name, &sec, &nsec, &used) == 3 &&
		    !strcmp(name, "monotonic") && nsec > -1000000000ll && nsec < 1000000000ll &&
		    sec > -(INT64_MAX / 1000000000ll) && sec < INT64_MAX / 1000000000ll) {
			*off_ns = sec * 1000000000ll + nsec;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -EINVAL;
}

int64_t xl_ktime_realtime_off_ns(void)
{
	struct timespec rt, mono;
	int64_t off = 0;
	char buf[256];
	ssize_t n;
	int fd;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	fd = open("/proc/self/timens_offsets", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = 0;
		if (xl_timens_mono_off_parse(buf, &off))
			off = 0;
		close(fd);
	}
	return (int64_t)(rt.tv_sec - mono.tv_sec) * 1000000000ll + (rt.tv_nsec - mono.tv_nsec) +
	       off;
}
