// SPDX-License-Identifier: BSD-2-Clause
/* The monotonic clock and the interruptible sleep (see xdplab/time.h). */
#include <time.h>

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
