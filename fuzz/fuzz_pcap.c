// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the capture reader xl_frames_load_pcap() (libpcap
 * underneath: pcap and pcapng, every link type) on arbitrary bytes, written
 * to a memfd so it is read through a path as gen --pcap reads it. Checks
 * what the reader promises: every kept frame is 14..max_len bytes and lies
 * inside the buffer, the counts add up; and the frames written again as
 * pcapng by our writer read back the same. Built by `make fuzz`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xdplab/log.h"
#include "xdplab/pcapfile.h"

/*
 * The writer's file: in a directory of its own, as the writer writes a
 * temporary file beside it and renames it into place (xl_afile), which a
 * memfd's /proc/self/fd path cannot take.
 */
static char rt_dir[64], rt_path[96];

static void rt_cleanup(void)
{
	unlink(rt_path);
	rmdir(rt_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	xl_log_set_level(XL_LOG_SILENT); /* its one-line diagnostics: silent */
	snprintf(rt_dir, sizeof(rt_dir), "%s/fuzz_pcap.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(rt_dir))
		abort();
	snprintf(rt_path, sizeof(rt_path), "%s/rt.pcapng", rt_dir);
	atexit(rt_cleanup);
	return 0;
}

/*
 * The frames kept, written again by our pcapng writer (every odd length,
 * with the options a capture adds) and read back by libpcap: the same
 * frames, lengths and bytes, in order.
 */
static void round_trip_ng(const struct xl_pcap_frames *f)
{
	static const struct xl_cap_meta meta = { .queue = 1, .xdp_action = 2, .comment = "fuzz" };
	struct xl_pcap_frames g;
	struct xl_pcap_writer *w;
	size_t i;

	if (!*rt_path)
		abort();
	w = xl_pcap_writer__open_ng(rt_path, 1514, true, 0, "fuzz0");
	if (!w)
		abort();
	for (i = 0; i < f->n; i++)
		xl_pcap_writer__write_meta(w, i * 1000, f->data + f->off[i], f->len[i], f->len[i],
					   i & 1 ? &meta : NULL);
	if (xl_pcap_writer__close(w) || xl_frames_load_pcap(rt_path, 1514, &g))
		abort();
	if (g.n != f->n || g.read != f->n)
		abort();
	for (i = 0; i < g.n; i++)
		if (g.len[i] != f->len[i] ||
		    memcmp(g.data + g.off[i], f->data + f->off[i], g.len[i]))
			abort();
	xl_frames_free(&g);
	unlink(rt_path);
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
	round_trip_ng(&f);
	xl_frames_free(&f);
	return total == (size_t)-1;
}
