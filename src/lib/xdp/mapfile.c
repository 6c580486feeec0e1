// SPDX-License-Identifier: BSD-2-Clause
/*
 * Filling a user program's maps from text files (--map NAME=FILE): one
 * "KEY VALUE" per line, in hex bytes, decimal, addresses or LPM prefixes.
 * The forms are listed in include/xdplab/userprog.h and docs/own-program.md.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/bpf.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "xdplab/bench.h"
#include "xdplab/log.h"
#include "xdplab/userprog.h"

bool xl_map_fillable(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LPM_TRIE:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		return true;
	}
	return false;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* "0x" + 2 * size hex digits: bytes in memory order. */
static int parse_hex(const char *t, uint32_t size, uint8_t *out)
{
	uint32_t i;

	if (strlen(t) != 2 + 2 * (size_t)size)
		return -EINVAL;
	for (i = 0; i < size; i++) {
		int h = hexval((unsigned char)t[2 + 2 * i]), l = hexval((unsigned char)t[3 + 2 * i]);

		if (h < 0 || l < 0)
			return -EINVAL;
		out[i] = h << 4 | l;
	}
	return 0;
}

/* A decimal whole number that fits @size (1, 2, 4, 8) bytes, host order. */
static int parse_dec(const char *t, uint32_t size, void *out)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)t[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(t, &end, 10);
	if (*end || errno)
		return -EINVAL;
	switch (size) {
	case 1:
		if (v > 0xff)
			return -EINVAL;
		*(uint8_t *)out = v;
		return 0;
	case 2:
		if (v > 0xffff)
			return -EINVAL;
		*(uint16_t *)out = v;
		return 0;
	case 4:
		if (v > 0xffffffffull)
			return -EINVAL;
		*(uint32_t *)out = v;
		return 0;
	case 8:
		*(uint64_t *)out = v;
		return 0;
	}
	return -EINVAL;
}

/* ADDR[/LEN] into an LPM trie key: u32 prefixlen (host order), address. */
static int parse_prefix(const char *t, uint32_t size, uint8_t *out)
{
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(t, '/');
	size_t alen = slash ? (size_t)(slash - t) : strlen(t);
	uint32_t plen, bits, alen_bytes = size - 4;
	uint64_t v;

	if (alen >= sizeof(addr) || (alen_bytes != 4 && alen_bytes != 16))
		return -EINVAL;
	memcpy(addr, t, alen);
	addr[alen] = '\0';
	if (inet_pton(alen_bytes == 4 ? AF_INET : AF_INET6, addr, out + 4) != 1)
		return -EINVAL;
	bits = alen_bytes * 8;
	plen = bits;
	if (slash) {
		if (parse_dec(slash + 1, 8, &v) || v > bits)
			return -EINVAL;
		plen = v;
	}
	memcpy(out, &plen, 4);
	return 0;
}

int xl_map_parse_token(const char *tok, uint32_t size, bool lpm, void *out)
{
	if (!tok || !*tok || !size)
		return -EINVAL;
	if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))
		return parse_hex(tok, size, out);
	if (lpm)
		return parse_prefix(tok, size, out);
	if (size == 4 && strchr(tok, '.'))
		return inet_pton(AF_INET, tok, out) == 1 ? 0 : -EINVAL;
	if (size == 16 && strchr(tok, ':'))
		return inet_pton(AF_INET6, tok, out) == 1 ? 0 : -EINVAL;
	return parse_dec(tok, size, out);
}

static const char *forms(uint32_t size, bool lpm)
{
	if (lpm)
		return size == 8 ? "A.B.C.D/LEN, A.B.C.D or 0x + 16 hex digits" :
		       size == 20 ? "IPV6/LEN, IPV6 or 0x + 40 hex digits" : "0x + hex digits";
	switch (size) {
	case 4:
		return "a decimal number, A.B.C.D or 0x + 8 hex digits";
	case 16:
		return "an IPv6 address or 0x + 32 hex digits";
	case 1:
	case 2:
	case 8:
		return "a decimal number or 0x + 2 hex digits per byte";
	}
	return "0x + 2 hex digits per byte";
}

/*
 * Open @path for reading a map file: a regular file, or /dev/null (an empty
 * map on purpose). O_NONBLOCK: opening a FIFO must not wait for a writer.
 * Return: the stream, or NULL with one line logged and errno set (EINVAL:
 * not a regular file or too large).
 */
static FILE *open_map_file(const char *name, const char *path)
{
	struct stat st;
	int fd, err;
	FILE *f;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		err = errno;
		xl_err("--map %s=%s: %s", name, path, strerror(err));
		goto out_errno;
	}
	if (fstat(fd, &st)) {
		err = errno;
		xl_err("--map %s=%s: %s", name, path, strerror(err));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode) &&
	    !(S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 3)) {
		err = EINVAL;
		xl_err("--map %s=%s: not a regular file (%s; accepted: a text file of KEY VALUE lines, or /dev/null for an empty map)",
		       name, path, S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) ?
		       "a character device" : S_ISFIFO(st.st_mode) ? "a pipe" : S_ISBLK(st.st_mode) ?
		       "a block device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a file");
		goto out_close;
	}
	if (st.st_size > XL_MAP_FILE_MAX) {
		err = EINVAL;
		xl_err("--map %s=%s: %lld bytes, more than a map file may have (%d MiB)", name, path,
		       (long long)st.st_size, XL_MAP_FILE_MAX >> 20);
		goto out_close;
	}
	f = fdopen(fd, "r");
	if (f)
		return f;
	err = errno;
	xl_err("--map %s=%s: %s", name, path, strerror(err));
out_close:
	close(fd);
out_errno:
	errno = err;
	return NULL;
}

int xl_map_fill_file(int map_fd, const char *name, uint32_t type, uint32_t key_size,
		     uint32_t value_size, uint32_t max_entries, const char *path)
{
	bool lpm = type == BPF_MAP_TYPE_LPM_TRIE;
	bool array = type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
	bool percpu = type == BPF_MAP_TYPE_PERCPU_ARRAY || type == BPF_MAP_TYPE_PERCPU_HASH ||
		      type == BPF_MAP_TYPE_LRU_PERCPU_HASH;
	int ncpus = percpu ? libbpf_num_possible_cpus() : 1;
	size_t vstride = percpu ? (value_size + 7) / 8 * 8 : value_size;
	uint8_t *key = NULL, *val = NULL;
	char *line = NULL;
	size_t cap = 0, total = 0;
	int lineno = 0, n = 0, err = 0, i;
	ssize_t len;
	FILE *f;

	if (!xl_map_fillable(type)) {
		const char *tn = libbpf_bpf_map_type_str(type);

		xl_err("map %s: type %s cannot be filled from a file (accepted: array, hash, lru_hash, lpm_trie, percpu_array, percpu_hash, lru_percpu_hash)",
		       name, tn ? tn : "?");
		return -EOPNOTSUPP;
	}
	if (ncpus < 1)
		return ncpus;
	f = open_map_file(name, path);
	if (!f)
		return -errno;
	key = calloc(1, key_size);
	val = calloc(ncpus, vstride);
	if (!key || !val) {
		err = -ENOMEM;
		goto out;
	}
	/* Whole lines of any length; the file's size is capped above. */
	while ((errno = 0, len = getline(&line, &cap, f)) >= 0) {
		char *hash, *k, *v, *extra, *save;

		lineno++;
		total += len;
		if (total > XL_MAP_FILE_MAX) { /* it grew while we read it */
			xl_err("%s:%d: map %s: more than a map file may have (%d MiB)", path, lineno,
			       name, XL_MAP_FILE_MAX >> 20);
			err = -EINVAL;
			goto out;
		}
		if (memchr(line, '\0', len)) {
			xl_err("%s:%d: map %s: a NUL byte in the line (accepted: text, KEY VALUE per line)",
			       path, lineno, name);
			err = -EINVAL;
			goto out;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		k = strtok_r(line, " \t\r\n", &save);
		if (!k)
			continue;
		v = strtok_r(NULL, " \t\r\n", &save);
		extra = strtok_r(NULL, " \t\r\n", &save);
		if (!v || extra) {
			xl_err("%s:%d: map %s: want 'KEY VALUE' (two words), got %s", path, lineno,
			       name, v ? "more" : "one");
			err = -EINVAL;
			goto out;
		}
		memset(key, 0, key_size);
		if (xl_map_parse_token(k, key_size, lpm, key)) {
			xl_err("%s:%d: map %s: key '%s' is not accepted for a %u-byte key (accepted: %s)",
			       path, lineno, name, k, key_size, forms(key_size, lpm));
			err = -EINVAL;
			goto out;
		}
		/* An array's key is a u32 index: the kernel's E2BIG would read "full". */
		if (array && key_size == 4 && *(uint32_t *)key >= max_entries) {
			xl_err("%s:%d: map %s: index %u out of range (max_entries %u)", path, lineno,
			       name, *(uint32_t *)key, max_entries);
			err = -EINVAL;
			goto out;
		}
		memset(val, 0, ncpus * vstride);
		if (xl_map_parse_token(v, value_size, false, val)) {
			xl_err("%s:%d: map %s: value '%s' is not accepted for a %u-byte value (accepted: %s)",
			       path, lineno, name, v, value_size, forms(value_size, false));
			err = -EINVAL;
			goto out;
		}
		for (i = 1; i < ncpus; i++)
			memcpy(val + i * vstride, val, value_size);
		if (bpf_map_update_elem(map_fd, key, val, BPF_ANY)) {
			/* Full: E2BIG from a hash, ENOSPC from an LPM trie (kernel/bpf/lpm_trie.c). */
			bool full = errno == E2BIG || (lpm && errno == ENOSPC);

			err = -errno;
			xl_err("%s:%d: map %s: cannot store the entry: %s%s", path, lineno, name,
			       strerror(-err), full ? " (the map is full)" : "");
			goto out;
		}
		n++;
	}
	if (!feof(f)) { /* a read error, or no memory for a line */
		err = errno ? -errno : -EIO;
		xl_err("%s:%d: map %s: cannot read: %s", path, lineno + 1, name, strerror(-err));
	}
out:
	free(line);
	free(key);
	free(val);
	fclose(f);
	return err ? err : n;
}
