/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file child.h
 * Helper processes that xdplab starts and must stop on every path (the
 * perf listener, the generator on another host through ssh): forked with
 * PR_SET_PDEATHSIG(SIGKILL), so they die with xdplab even on SIGKILL; in a
 * process group of their own, so a Ctrl-C at the terminal reaches xdplab,
 * which stops them itself; and SIGKILLed by an atexit handler if still
 * running when xdplab exits.
 */
#ifndef XDPLAB_CHILD_H
#define XDPLAB_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

/** Flags of xl_child_spawn(). */
enum {
	XL_CHILD_STDIN_PIPE = 1,  /**< the child's stdin is a pipe from us (else /dev/null) */
	XL_CHILD_STDOUT_PIPE = 2, /**< its stdout is a pipe to us (else /dev/null) */
};

/**
 * struct xl_child - one child process.
 * @pid: its pid, 0 when none (not started, or reaped).
 * @stdin_fd: write end of its stdin pipe, or -1; closing it gives the child EOF.
 * @stdout_fd: read end of its stdout pipe, or -1.
 * @status: its wait status once reaped (xl_child_stop(), xl_child_exited()).
 */
struct xl_child {
	pid_t pid;
	int stdin_fd, stdout_fd;
	int status;
};

/**
 * xl_child_spawn() - start argv[0] (PATH lookup) with @argv.
 * @flags: XL_CHILD_STDIN_PIPE | XL_CHILD_STDOUT_PIPE.
 * @err_path: file that receives its stderr (created, truncated; not through a
 *            symbolic link: O_NOFOLLOW), or NULL
 *            for /dev/null.
 * The child's signal dispositions and mask are reset to the defaults.
 * Return: 0 (@c filled), or -errno (-ENOENT: the program is not on PATH,
 * found by waiting briefly for the exec to fail).
 */
int xl_child_spawn(struct xl_child *c, char *const argv[], int flags, const char *err_path);

/** Most fds xl_child_spawn_opts() passes to a child. */
#define XL_CHILD_MAX_PASS 4

/**
 * struct xl_child_opts - how xl_child_spawn_opts() starts a child.
 * @flags: XL_CHILD_STDIN_PIPE | XL_CHILD_STDOUT_PIPE.
 * @err_fd: the child's stderr (and its stdout with @out_to_err), or -1 for
 *          /dev/null; ours stays open (the caller closes it).
 * @out_to_err: without XL_CHILD_STDOUT_PIPE, its stdout goes to @err_fd too.
 * @pass_fds/@npass: fds (each >= 3, at most XL_CHILD_MAX_PASS) the program
 *          inherits under the same numbers: their close-on-exec flag is
 *          cleared in the child only (perf's --control fd:CTL,ACK).
 */
struct xl_child_opts {
	int flags;
	int err_fd;
	bool out_to_err;
	const int *pass_fds;
	int npass;
};

/**
 * xl_child_spawn_opts() - xl_child_spawn() with the choices of @o: the same
 * tracking (parent death signal SIGKILL, own process group, killed at
 * exit), the same exec check.
 * Return: 0 (@c filled), or -errno (-ENOENT: not on PATH; -EBADF: a
 * @pass_fds entry below 3; -EINVAL: @npass above XL_CHILD_MAX_PASS).
 */
int xl_child_spawn_opts(struct xl_child *c, char *const argv[], const struct xl_child_opts *o);

/**
 * xl_child_exited() - reap @c if it has ended, without waiting.
 * Return: true when it has ended (c->status holds the wait status).
 */
bool xl_child_exited(struct xl_child *c);

/**
 * xl_child_stop() - close our pipe ends, send @sig (0: none, just wait),
 * wait up to @timeout_ms for the child to end, then SIGKILL it and reap it.
 * Safe on a child already reaped or never started (pid 0).
 * Return: its exit status (0..255), 128 + the signal that ended it, or
 * -ETIMEDOUT when it had to be SIGKILLed.
 */
int xl_child_stop(struct xl_child *c, int sig, int timeout_ms);

/**
 * xl_run_cmd() - run argv (PATH lookup) and wait for it, retrying the wait
 * on EINTR; stdout discarded, stderr read and the first line copied into
 * @errline (@errlen bytes; may be NULL). Not one of the tracked children
 * above: for short commands (ip, nft, perf --version).
 * Return: exit status, 128 + the signal that ended it, or -errno if it
 * could not be started.
 */
int xl_run_cmd(char *const argv[], char *errline, size_t errlen);

/**
 * xl_wait_status_str() - a wait status (waitpid(), pclose(), struct
 * xl_child.status) in words: "exited 1", "killed by signal 9", "exited 0"
 * into @buf (@len bytes). Return: @buf.
 */
char *xl_wait_status_str(int status, char *buf, size_t len);

#endif /* XDPLAB_CHILD_H */
