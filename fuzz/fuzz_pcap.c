// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the capture reader xl_frames_load_pcap() (libpcap
 * underneath: pcap and pcapng, every link type) on arbitrary bytes, written
 * to a memfd so it is read through a path as gen --pcap reads it. Checks
 * what the reader promises: every kept frame is 14..max_len bytes and lies
 * inside the buffer, the counts add up. Built by `make fuzz`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xdplab/log.h"
#include "xdplab/pcapfile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	xl_log_set_level(XL_LOG_ERROR - 1); /* its one-line diagnostics: silent */
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	struct xl_pcap_frames f;
	char path[64];
	size_t i, total = 0;

	if (fd < 0)
		fd = memfd_create("fuzz.pcap", 0);
	if (fd < 0 || ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (xl_frames_load_pcap(path, 1514, &f))
		return 0;
	for (i = 0; i < f.n; i++) {
		if (f.len[i] < 14 || f.len[i] > 1514)
			abort();
		if (i && f.off[i] < f.off[i - 1] + f.len[i - 1])
			abort();
		total += f.len[i];
		/* Touch every byte: ASan sees any frame outside the buffer. */
		if (f.data[f.off[i]] == 0x55 && f.data[f.off[i] + f.len[i] - 1] == 0xaa)
			total++;
	}
	if (f.n + f.oversize + f.runt > f.read)
		abort();
	xl_frames_free(&f);
	return total == (size_t)-1;
}
