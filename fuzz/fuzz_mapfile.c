// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the map-file filler xl_map_fill_file() (--map NAME=FILE)
 * on arbitrary bytes, written to a memfd and read through its
 * /proc/self/fd path as the command reads a file. The first byte picks one
 * of the maps made once in LLVMFuzzerInitialize() (array, hash, LPM trie,
 * per-CPU array, odd sizes); the rest is the file. Checks what the filler
 * promises: the number of entries written (at most one per line), or one of
 * its documented errors (-EINVAL, -ENOMEM, or the update's -E2BIG of a full
 * map, -ENOSPC of a full LPM trie); an array
 * index past max_entries is refused, never stored. Runs as root (the maps).
 * Built by `make fuzz`.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/bpf.h>

#include <bpf/bpf.h>

#include "xdplab/log.h"
#include "xdplab/userprog.h"

static struct {
	uint32_t type, key, value, max;
	int fd;
} maps[] = {
	{ BPF_MAP_TYPE_ARRAY, 4, 8, 16 },
	{ BPF_MAP_TYPE_HASH, 4, 4, 64 },
	{ BPF_MAP_TYPE_HASH, 16, 16, 64 },
	{ BPF_MAP_TYPE_HASH, 3, 5, 64 },
	{ BPF_MAP_TYPE_LPM_TRIE, 8, 4, 64 },
	{ BPF_MAP_TYPE_LPM_TRIE, 20, 2, 64 },
	{ BPF_MAP_TYPE_PERCPU_ARRAY, 4, 1, 4 },
	{ BPF_MAP_TYPE_LRU_HASH, 8, 8, 64 },
};
#define NMAPS (sizeof(maps) / sizeof(maps[0]))
static int memfd = -1;
static char path[64];

static int make_map(unsigned int i)
{
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = maps[i].type == BPF_MAP_TYPE_LPM_TRIE ? BPF_F_NO_PREALLOC : 0);

	maps[i].fd = bpf_map_create(maps[i].type, "fuzz", maps[i].key, maps[i].value, maps[i].max, &o);
	return maps[i].fd;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	unsigned int i;

	xl_log_set_level(XL_LOG_SILENT); /* its one-line diagnostics: silent */
	for (i = 0; i < NMAPS; i++)
		if (make_map(i) < 0) {
			fprintf(stderr, "fuzz_mapfile: bpf_map_create %u: %s (run as root)\n", i,
				strerror(errno));
			exit(1);
		}
	memfd = memfd_create("fuzz.map", 0);
	if (memfd < 0)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int i, m;
	size_t lines = 0, k;
	uint8_t val[8 * 4096];
	int n;

	if (size < 1)
		return 0;
	m = data[0] % NMAPS;
	data++, size--;
	if (ftruncate(memfd, 0) || (size && pwrite(memfd, data, size, 0) != (ssize_t)size))
		abort();
	for (k = 0; k < size; k++)
		lines += data[k] == '\n';
	if (size && data[size - 1] != '\n')
		lines++;
	n = xl_map_fill_file(maps[m].fd, "fuzz", maps[m].type, maps[m].key, maps[m].value,
			     maps[m].max, path);
	if (n >= 0) {
		if ((size_t)n > lines)
			abort();
	} else if (n != -EINVAL && n != -E2BIG && n != -ENOSPC && n != -ENOMEM) {
		fprintf(stderr, "fuzz_mapfile: undocumented error %d\n", n);
		abort();
	}
	if (maps[m].type == BPF_MAP_TYPE_ARRAY || maps[m].type == BPF_MAP_TYPE_PERCPU_ARRAY) {
		i = maps[m].max; /* the first index past the end: never stored */
		if (!bpf_map_lookup_elem(maps[m].fd, &i, val))
			abort();
	}
	if (n == -E2BIG || n == -ENOSPC) { /* full: a fresh map, so later inputs store again */
		close(maps[m].fd);
		if (make_map(m) < 0)
			abort();
	}
	return 0;
}
