// SPDX-License-Identifier: BSD-2-Clause
/* The generator on another host, through ssh (genremote.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xdplab/child.h"
#include "xdplab/genremote.h"
#include "xdplab/log.h"
#include "xdplab/tmpdir.h"

struct xl_gen_remote {
	char host[256], iface[64], xdplab[256], ssh_config[256];
	char dst_mac[18], dst_ip[INET_ADDRSTRLEN];
	uint16_t dst_port;
	char dir[PATH_MAX], err_path[PATH_MAX + 8], desc[640];
	struct xl_child child;
};

/* Characters that pass a remote shell's parsing unchanged. */
static bool shell_safe(const char *s)
{
	return s[0] && s[0] != '-' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@+-") ==
		       strlen(s);
}

struct xl_gen_remote *xl_gen_remote__new(const struct xl_gen_remote_opts *o)
{
	struct xl_gen_remote *r;
	const char *x = o->xdplab ? o->xdplab : "xdplab";
	int err;

	if (!shell_safe(o->host) || !shell_safe(o->iface) || !shell_safe(x)) {
		xl_err("--gen-host/--gen-iface/--gen-xdplab: '%s', '%s', '%s': only letters, digits and _./:@+- are accepted",
		       o->host, o->iface, x);
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	snprintf(r->host, sizeof(r->host), "%s", o->host);
	snprintf(r->iface, sizeof(r->iface), "%s", o->iface);
	snprintf(r->xdplab, sizeof(r->xdplab), "%s", x);
	snprintf(r->ssh_config, sizeof(r->ssh_config), "%s", o->ssh_config ? o->ssh_config : "");
	snprintf(r->dst_mac, sizeof(r->dst_mac), "%02x:%02x:%02x:%02x:%02x:%02x", o->dst_mac[0],
		 o->dst_mac[1], o->dst_mac[2], o->dst_mac[3], o->dst_mac[4], o->dst_mac[5]);
	inet_ntop(AF_INET, &o->dst_ip, r->dst_ip, sizeof(r->dst_ip));
	r->dst_port = o->dst_port;
	/* Under $TMPDIR, named by our pid: `xdplab cleanup` removes a dead run's. */
	err = xl_run_mkdtemp(r->dir, sizeof(r->dir), "xdplab-ssh");
	if (err) {
		char t[PATH_MAX + 8];

		xl_err("cannot make a temporary directory in %s: %s", xl_tmpdir_named(t, sizeof(t)),
		       strerror(-err));
		free(r);
		errno = -err;
		return NULL;
	}
	snprintf(r->err_path, sizeof(r->err_path), "%s/stderr", r->dir);
	snprintf(r->desc, sizeof(r->desc), "ssh %s: %s gen %s", r->host, r->xdplab, r->iface);
	return r;
}

/* ssh [-F CONFIG] -o BatchMode=yes ... HOST CMD, started in @r->child. */
static int ssh_spawn(struct xl_gen_remote *r, const char *cmd)
{
	char *argv[16];
	int n = 0;

	argv[n++] = "ssh";
	if (r->ssh_config[0]) {
		argv[n++] = "-F";
		argv[n++] = r->ssh_config;
	}
	argv[n++] = "-o";
	argv[n++] = "BatchMode=yes";
	argv[n++] = "-o";
	argv[n++] = "ConnectTimeout=10";
	argv[n++] = "-T";
	argv[n++] = "--";
	argv[n++] = r->host;
	argv[n++] = (char *)cmd;
	argv[n] = NULL;
	return xl_child_spawn(&r->child, argv, XL_CHILD_STDIN_PIPE, r->err_path);
}

static void first_err_line(const struct xl_gen_remote *r, char *buf, size_t len)
{
	FILE *f = fopen(r->err_path, "r");

	buf[0] = '\0';
	if (f) {
		while (fgets(buf, len, f))
			if (buf[0] != '\n' && buf[0] != '\r' && strncmp(buf, "Warning: Permanently added", 26))
				break;
		fclose(f);
	}
	buf[strcspn(buf, "\r\n")] = '\0'; /* ssh ends its lines with CR LF */
}

int xl_gen_remote__check(struct xl_gen_remote *r)
{
	char cmd[512], line[256];
	int st, err;

	snprintf(cmd, sizeof(cmd), "%s gen --help >/dev/null", r->xdplab);
	err = ssh_spawn(r, cmd);
	if (err) {
		xl_err("cannot run ssh: %s%s", strerror(-err),
		       err == -ENOENT ? " (install openssh-client)" : "");
		return err;
	}
	st = xl_child_stop(&r->child, 0, 20000);
	if (!st)
		return 0;
	first_err_line(r, line, sizeof(line));
	if (st == 127) {
		xl_err("%s: %s is not there (--gen-xdplab PATH)%s%s", r->host, r->xdplab,
		       line[0] ? ": " : "", line);
		return -ENOENT;
	}
	xl_err("ssh %s failed (status %d)%s%s", r->host, st, line[0] ? ": " : "", line);
	return -EHOSTUNREACH;
}

int xl_gen_remote__start(struct xl_gen_remote *r, uint32_t size, uint64_t max_ns)
{
	char cmd[1024];
	uint64_t secs = (max_ns + 999999999ull) / 1000000000ull;

	if (r->child.pid)
		return -EBUSY;
	/*
	 * The wrapper: the generator in the background; a reader of the
	 * shell's stdin (our pipe, kept on fd 3: an asynchronous list's own
	 * stdin is /dev/null) that SIGINTs it at end-of-file; the shell waits
	 * for the generator and exits with its status, so ssh ends when the
	 * generator does, for whatever reason, and the generator ends when
	 * our side of the pipe closes.
	 */
	snprintf(cmd, sizeof(cmd),
		 "sh -c 'exec 3<&0; %s gen %s --dst-mac %s --dst-ip %s --dst-port %u --size %u --duration %llu -q </dev/null 3<&- & "
		 "p=$!; (read x <&3; kill -INT $p) >/dev/null 2>&1 & r=$!; exec 3<&-; "
		 "wait $p; s=$?; kill $r 2>/dev/null; exit $s'",
		 r->xdplab, r->iface, r->dst_mac, r->dst_ip, r->dst_port, size,
		 (unsigned long long)secs);
	xl_dbg("%s", cmd);
	return ssh_spawn(r, cmd);
}

int xl_gen_remote__stop(struct xl_gen_remote *r)
{
	char line[256];
	int st;

	if (!r->child.pid && !r->child.status)
		return 0;
	st = xl_child_stop(&r->child, 0, 10000);
	if (!st)
		return 0;
	first_err_line(r, line, sizeof(line));
	xl_err("the generator on %s %s (status %d)%s%s", r->host,
	       st == -ETIMEDOUT ? "did not stop within 10 s" : "failed", st, line[0] ? ": " : "",
	       line);
	return st == -ETIMEDOUT ? -ETIMEDOUT : -EIO;
}

bool xl_gen_remote__ended(struct xl_gen_remote *r)
{
	return !r->child.pid || xl_child_exited(&r->child);
}

void xl_gen_remote__free(struct xl_gen_remote *r)
{
	if (!r)
		return;
	if (r->child.pid)
		xl_child_stop(&r->child, SIGTERM, 3000);
	unlink(r->err_path);
	rmdir(r->dir);
	free(r);
}

const char *xl_gen_remote__describe(const struct xl_gen_remote *r)
{
	return r->desc;
}
