/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file log.h
 * The one place the library prints: diagnostics go to stderr, never stdout.
 * Results travel back to commands as structs; only src/cmd prints them.
 */
#ifndef XDPLAB_LOG_H
#define XDPLAB_LOG_H

#include <stddef.h>

/** Verbosity levels; a message is printed when its level <= the current one. */
enum xl_log_level {
	XL_LOG_ERROR = 0,
	XL_LOG_WARN = 1,
	XL_LOG_INFO = 2,
	XL_LOG_DEBUG = 3,
};

/**
 * xl_log_set_level() - set the verbosity (default XL_LOG_WARN; -v gives
 * INFO, -vv DEBUG). Also routes libbpf's messages through xl_log, one level
 * lower than libbpf's own (its warnings become INFO). Not thread-safe; call
 * before starting threads.
 */
void xl_log_set_level(enum xl_log_level level);

/** xl_log_get_level() - the current verbosity. */
enum xl_log_level xl_log_get_level(void);

/**
 * xl_log() - print one line "xdplab: <msg>" to stderr when @level is
 * enabled. A trailing newline is added if @fmt has none. The formatted
 * message goes through xl_term_esc() (trailing newlines dropped first), so
 * a control character or a newline in a %s argument (a file's or an
 * option's text) cannot move the cursor or forge a line. Messages longer
 * than 1023 bytes are cut. Thread-safe (one fprintf per line).
 */
void xl_log(enum xl_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** xl_term_esc() flags. */
enum xl_esc_flags {
	/** A markdown table cell: also | and \ get a backslash before them, so text cannot end a cell. */
	XL_ESC_MD = 1,
	/** Keep newline and tab (a multi-line message from a library, e.g. a verifier log). */
	XL_ESC_KEEP_NL = 2,
};

/**
 * xl_term_esc() - @s as text safe for a terminal (stdout or stderr), into
 * @buf of @len bytes (NUL-terminated; @len >= 1). The one escaper for text
 * that came from a results file, a map file, a capture, an ELF file, /proc
 * or an option: bytes 0x00-0x1f and 0x7f, the UTF-8 encodings of the C1
 * controls U+0080-U+009F, and every byte that is not part of a valid UTF-8
 * sequence (overlong forms, surrogates and > U+10FFFF included) are shown
 * as \xNN, one per byte (lower-case hex); valid UTF-8 is kept as is.
 * A backslash is kept (outside XL_ESC_MD): the output is for a reader, not
 * to be parsed back. When the escaped text does not fit, it ends in "..."
 * and no escape or UTF-8 sequence is cut. @s NULL gives "(null)".
 * Returns @buf, so that it can be a printf() argument; no errors.
 */
const char *xl_term_esc(char *buf, size_t len, const char *s, unsigned int flags);

/** Buffer size XL_ESC() gives: 4 bytes per input byte of up to 255 bytes. */
#define XL_ESC_LEN 1024

/**
 * XL_ESC() - xl_term_esc() into a buffer that lives until the end of the
 * enclosing block (a compound literal): printf("%s %s\n", XL_ESC(a), XL_ESC(b)).
 */
#define XL_ESC(s) xl_term_esc((char[XL_ESC_LEN]){ 0 }, XL_ESC_LEN, (s), 0)
/** XL_ESC_MD() - XL_ESC() for a markdown table cell (XL_ESC_MD). */
#define XL_ESC_MD(s) xl_term_esc((char[XL_ESC_LEN]){ 0 }, XL_ESC_LEN, (s), XL_ESC_MD)

#define xl_err(...) xl_log(XL_LOG_ERROR, __VA_ARGS__)
#define xl_warn(...) xl_log(XL_LOG_WARN, __VA_ARGS__)
#define xl_info(...) xl_log(XL_LOG_INFO, __VA_ARGS__)
#define xl_dbg(...) xl_log(XL_LOG_DEBUG, __VA_ARGS__)

#endif /* XDPLAB_LOG_H */
