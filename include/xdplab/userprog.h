/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file userprog.h
 * A user's own XDP program: open and load a BPF object with libbpf, pick
 * its XDP program, fill its maps from text files, pin them, and count its
 * return codes from outside (an fexit program of ours on it). See
 * docs/own-program.md for the map file format and the rules.
 */
#ifndef XDPLAB_USERPROG_H
#define XDPLAB_USERPROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "xdplab/abi/bench.h"

/** Most --map NAME=FILE fills per object. */
#define XL_USERPROG_MAX_FILLS 16

/** The bpffs directory of the per-run pin directories (LIBBPF_PIN_BY_NAME maps). */
#define XL_USERPROG_PIN_ROOT "/sys/fs/bpf/xdplab"
/** Their names: XL_USERPROG_PIN_ROOT/xdplab-prog-PID-XXXXXX (bpffs refuses '.' in a name). */
#define XL_USERPROG_PIN_PREFIX "xdplab-prog-"

/**
 * struct xl_userprog_opts - what to load.
 * @path: the BPF object file (ELF, as clang -target bpf writes it).
 * @sec: pick the XDP program of this ELF section (e.g. "xdp" or
 *       "xdp.frags"), or NULL; @func: pick it by function name, or NULL.
 *       With both NULL the object must hold exactly one XDP program.
 * @fills: @nfills strings "MAPNAME=FILE" (see xl_map_fill_file()).
 * @pin_dir: pin every map of the object under this directory (bpffs) for
 *       the lifetime of the object (unpinned by xl_userprog__destroy());
 *       NULL: no pins. With pins, an empty map that "needs" filling is only
 *       a warning: user space is expected to fill it through the pin.
 * @log_dir: where a verifier log is written when the load fails (NULL:
 *       $TMPDIR, else /tmp); the file is a new one,
 *       xdplab-verifier-<object>-<pid>.XXXXXX.log (XXXXXX random, made with
 *       O_EXCL: never an existing file or a planted link).
 * @can_pin: the command offers --pin-maps, so the error for an empty map
 *       names it as the other way to fill one (only `run` does).
 */
struct xl_userprog_opts {
	const char *path;
	const char *sec;
	const char *func;
	const char *const *fills;
	int nfills;
	const char *pin_dir;
	const char *log_dir;
	bool can_pin;
};

struct xl_userprog;

/**
 * xl_userprog__load() - open @o->path, choose the XDP program, load the
 * object, fill and pin maps, and check that every map it needs is filled.
 *
 * "Needs": a map of type hash or LPM trie, not read-only, that holds no
 * entry after the fills. Such maps configure a program (blocklists, routes);
 * left empty, every lookup misses, which is rarely what a benchmark means
 * to measure. An empty file (--map NAME=/dev/null) says "empty on purpose".
 *
 * Errors (one line logged, naming the file and the cause):
 * -ENOENT (no such file), -ENOEXEC (not an ELF object, or libbpf cannot
 * read it as a BPF object), -ENOMSG (no XDP program in it), -EINVAL
 * (several XDP programs and no --sec/--func, or no program matches them;
 * the message lists the candidates; or a --map string or map file is
 * malformed: file and line named), -EOPNOTSUPP (a map type the filler
 * cannot fill; named), -ENOKEY (a needed map left empty; named), -EACCES
 * (the verifier rejected the program: its last lines are logged and the
 * full log is written to a file whose path is logged), -EPERM (no BPF
 * permission), or another -errno from libbpf.
 *
 * Return: the loaded object (free with xl_userprog__destroy()) or NULL
 * with errno set to the positive code.
 */
struct xl_userprog *xl_userprog__load(const struct xl_userprog_opts *o);

/**
 * xl_userprog_usage_error() - whether error @err (negative errno from
 * xl_userprog__load()) is the user's input (exit 2: missing file, not ELF,
 * no XDP program, ambiguous or unknown choice, bad map file, unfillable map
 * type, needed map empty) rather than a runtime failure (exit 1: verifier
 * rejection, permissions, kernel errors).
 */
bool xl_userprog_usage_error(int err);

/** xl_userprog__fd() - the chosen XDP program's fd (owned by @u). */
int xl_userprog__fd(const struct xl_userprog *u);

/** xl_userprog__name() - its function name (owned by @u). */
const char *xl_userprog__name(const struct xl_userprog *u);

/** xl_userprog__sec() - its ELF section name (owned by @u). */
const char *xl_userprog__sec(const struct xl_userprog *u);

/** xl_userprog__frags() - whether it was loaded with BPF_F_XDP_HAS_FRAGS ("xdp.frags"). */
bool xl_userprog__frags(const struct xl_userprog *u);

/**
 * xl_userprog__destroy() - unpin what was pinned (the --pin-maps pins and
 * the per-run directory of the pin-by-name maps), close everything. The
 * caller detaches links it made first. NULL is fine. A run killed before
 * it leaves its per-run directory to `xdplab cleanup`
 * (xl_userprog_pins_sweep()).
 */
void xl_userprog__destroy(struct xl_userprog *u);

/** The largest map file xl_map_fill_file() reads, bytes (64 MiB: 2 M entries of ~30 bytes). */
#define XL_MAP_FILE_MAX (64 << 20)

/**
 * xl_userprog_pins_sweep() - remove the per-run pin directories under
 * XL_USERPROG_PIN_ROOT whose process is gone (xl_pid_alive()), with the
 * pins in them (unlinking a pin drops the kernel's reference).
 * @removed: called with each removed directory's path and PID (may be NULL).
 * Return: the number removed, 0 when XL_USERPROG_PIN_ROOT does not exist,
 * or the negative errno of reading it.
 */
int xl_userprog_pins_sweep(void (*removed)(const char *path, pid_t pid, void *ctx), void *ctx);

/**
 * xl_map_fill_file() - fill map @map_fd from the text file @path.
 * @name: the map's name (messages). @type: enum bpf_map_type.
 * @key_size/@value_size: the map's sizes in bytes. @max_entries: the map's;
 * an array index (a u32 key) must be below it.
 *
 * @path must be a regular file of at most XL_MAP_FILE_MAX bytes, or
 * /dev/null (an empty map on purpose); anything else (a directory, a pipe,
 * /dev/zero) is refused before reading. The format, one entry per line (any
 * length): KEY VALUE, separated by blanks; '#' starts a comment to the end
 * of its line; blank lines are skipped; a NUL byte is an error. A KEY or
 * VALUE is one of:
 * - 0x followed by exactly 2 x size hex digits: the bytes in memory order;
 * - a decimal whole number, for sizes 1, 2, 4 and 8: host byte order;
 * - an IPv4 address (size 4) or an IPv6 address (size 16): network order;
 * - for LPM trie keys (key_size 8 or 20): ADDR/PREFIXLEN, or ADDR for the
 *   whole length (struct bpf_lpm_trie_key: u32 prefixlen, then the address).
 * Per-CPU maps get the same value on every CPU.
 * Return: the number of entries written, or (one line logged, naming the
 * file and, past the open, the line) -EINVAL (not a regular file, too large,
 * a NUL byte, a line that does not parse with the accepted forms, an array
 * index out of range), -EOPNOTSUPP (a map type this filler cannot fill),
 * -errno of open() (-ENOENT...) or of a read, or -errno of the update.
 */
int xl_map_fill_file(int map_fd, const char *name, uint32_t type, uint32_t key_size,
		     uint32_t value_size, uint32_t max_entries, const char *path);

/**
 * xl_map_parse_token() - parse one KEY or VALUE token of a map file (the
 * forms of xl_map_fill_file()) into @out of @size bytes.
 * @lpm: the token is an LPM trie key (the prefix form is accepted).
 * Return: 0, or -EINVAL when it is none of the accepted forms for @size.
 */
int xl_map_parse_token(const char *tok, uint32_t size, bool lpm, void *out);

/** xl_map_fillable() - whether xl_map_fill_file() fills maps of @type. */
bool xl_map_fillable(uint32_t type);

/**
 * struct xl_count - the fexit counter of a loaded user program
 * (bpf/prog_count.bpf.c): its return codes per CPU.
 */
struct xl_count;

/**
 * xl_count__create() - load our fexit program against @u's XDP program
 * and attach it. Needs the target's BTF (compile it with -g) and a kernel
 * that allows tracing BPF programs.
 * Return: the counter (free with xl_count__destroy()), or NULL with errno
 * (ENOTSUP: the target has no BTF; or the load/attach errno, logged).
 */
struct xl_count *xl_count__create(const struct xl_userprog *u);

/**
 * xl_count__read() - sum the per-CPU records of every possible CPU into
 * @total and, when @per_cpu is not NULL, copy the first
 * xl_bench_detail_ncpus() CPUs' records into it (at most XL_MAX_CPUS).
 * rx_packets counts calls, actions[] their return codes, errors returns
 * outside 0..4; rx_bytes is 0. Same contract as xl_bench__read(), so it
 * serves as struct xl_counter_src.read (the counter as its ctx, through
 * xl_count_meter_read()). Return: 0 or -errno.
 */
int xl_count__read(struct xl_count *c, struct xl_bench_rec *total, struct xl_bench_rec *per_cpu);

/** xl_count_meter_read() - xl_count__read() with a void * for struct xl_counter_src.read. */
xl_counter_read_fn xl_count_meter_read;

/** xl_count__destroy() - detach and free. NULL is fine. */
void xl_count__destroy(struct xl_count *c);

#endif /* XDPLAB_USERPROG_H */
