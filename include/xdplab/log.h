/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file log.h
 * The one place the library prints: diagnostics go to stderr, never stdout.
 * Results travel back to commands as structs; only src/cmd prints them.
 */
#ifndef XDPLAB_LOG_H
#define XDPLAB_LOG_H

#include "xdplab/escape.h" /* xl_term_esc(), XL_ESC(): what every printer of names uses */

/**
 * Verbosity levels; a message is printed when its level <= the current one.
 * XL_LOG_SILENT prints nothing (the fuzz targets): a level of its own, so
 * the enum is signed; "XL_LOG_ERROR - 1" in an unsigned enum was the
 * largest level and printed everything.
 */
enum xl_log_level {
	XL_LOG_SILENT = -1,
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
 * message goes through xl_term_esc() (xdplab/escape.h; trailing newlines dropped first), so
 * a control character or a newline in a %s argument (a file's or an
 * option's text) cannot move the cursor or forge a line. Messages longer
 * than 1023 bytes are cut. Thread-safe (one fprintf per line).
 */
void xl_log(enum xl_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define xl_err(...) xl_log(XL_LOG_ERROR, __VA_ARGS__)
#define xl_warn(...) xl_log(XL_LOG_WARN, __VA_ARGS__)
#define xl_info(...) xl_log(XL_LOG_INFO, __VA_ARGS__)
#define xl_dbg(...) xl_log(XL_LOG_DEBUG, __VA_ARGS__)

#endif /* XDPLAB_LOG_H */
