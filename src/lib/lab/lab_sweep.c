// SPDX-License-Identifier: BSD-2-Clause
/*
 * Removing labs (moved from lab.c): the set-up marks of `lab setup`, and
 * the sweep that removes the namespaces of labs whose owner process died
 * (xl_lab_sweep(); xl_lab_remove_all() also the finished manual labs that
 * no process uses), and xl_lab_remove() for one lab by tag.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xdplab/atomicfile.h"
#include "xdplab/lab.h"
#include "xdplab/log.h"
#include "xdplab/tmpdir.h"
#include "lab_priv.h"

/*
 * Manual labs are marked while `lab setup` builds them: a file named by the
 * tag in XL_RUN_STATE_DIR, made before the first namespace and removed when
 * the set-up finished (or the lab is destroyed). A sweep finding the mark of
 * a dead pid knows the set-up was killed half-way. The mark is empty, so
 * nothing of it can be half-written: whatever is at its name (a link planted
 * there, a dead set-up's mark of the same pid) is unlinked, never followed,
 * and the mark made with O_EXCL | O_NOFOLLOW (xl_open_excl()); one planted
 * again in between makes that fail, and the set-up with it. No temporary
 * name: a set-up killed while renaming one left it behind, unswept.
 */
#define XL_LAB_MARK_DIR XL_RUN_STATE_DIR

int xl_lab_setup_mark(const char *tag, bool on)
{
	char path[128];
	int err;

	snprintf(path, sizeof(path), XL_LAB_MARK_DIR "/setup-%s", tag);
	if (!on)
		return unlink(path) && errno != ENOENT ? -errno : 0;
	err = xl_run_state_dir();
	if (!err && unlink(path) && errno != ENOENT)
		err = -errno;
	if (!err) {
		int fd = xl_open_excl(path, O_WRONLY, 0644);

		err = fd < 0 ? fd : close(fd) ? -errno : 0;
	}
	if (err)
		xl_err("lab %s: cannot mark its set-up in %s: %s", tag, XL_LAB_MARK_DIR,
		       strerror(-err));
	return err;
}

static bool setup_marked(const char *tag)
{
	char path[128];

	snprintf(path, sizeof(path), XL_LAB_MARK_DIR "/setup-%s", tag);
	return !access(path, F_OK);
}

/* Either namespace of @tag still exists. */
static bool lab_ns_left(const char *tag)
{
	char path[128];

	snprintf(path, sizeof(path), NETNS_DIR "/%s-gen", tag);
	if (!access(path, F_OK))
		return true;
	snprintf(path, sizeof(path), NETNS_DIR "/%s-dut", tag);
	return !access(path, F_OK);
}

/*
 * Parse "xl<pid><letter>-gen|dut" (an automatic lab) or "xlm<pid><letter>-
 * gen|dut" (`lab setup`); return the pid (*@manual says which), or 0 if the
 * name is not a lab namespace. @tag (XL_LAB_TAG_LEN) gets "xl[m]<pid><letter>".
 */
static int lab_ns_pid(const char *name, bool *manual, char *tag)
{
	const char *p = name + 2;
	char *end;
	long pid;

	if (strncmp(name, "xl", 2))
		return 0;
	*manual = *p == 'm';
	if (*manual)
		p++;
	if (!(*p >= '0' && *p <= '9'))
		return 0;
	pid = strtol(p, &end, 10);
	if (end == p || pid <= 0 || pid > 1 << 22 || !(*end >= 'a' && *end <= 'z') ||
	    (strcmp(end + 1, "-gen") && strcmp(end + 1, "-dut")))
		return 0;
	snprintf(tag, XL_LAB_TAG_LEN, "%.*s", (int)(end + 1 - name), name);
	return (int)pid;
}

/*
 * A process other than us whose network namespace is /run/netns/@name: the
 * lab is in use (a benchmark run with --netns, a shell in `ip netns exec`).
 * Return: its pid, or 0.
 */
static int ns_user(const char *name)
{
	char path[300];
	struct stat ns;
	struct dirent *d;
	DIR *proc;
	int pid = 0;

	snprintf(path, sizeof(path), NETNS_DIR "/%s", name);
	if (stat(path, &ns))
		return 0;
	proc = opendir("/proc");
	if (!proc)
		return 0;
	while (!pid && (d = readdir(proc))) {
		struct stat st;
		int p = atoi(d->d_name);

		if (p <= 0 || p == getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%d/ns/net", p);
		if (!stat(path, &st) && st.st_ino == ns.st_ino && st.st_dev == ns.st_dev)
			pid = p;
	}
	closedir(proc);
	return pid;
}

static bool pid_alive(int pid)
{
	return pid > 0 && !(kill(pid, 0) && errno == ESRCH);
}

/*
 * What a sweep removes. Automatic labs: those whose process is dead. Manual
 * labs (`lab setup` exits and the lab stays): those whose set-up was killed
 * before it finished (its mark is still there and its pid is dead); with
 * @all (teardown --all, cleanup --labs) every finished one too, unless a
 * live process is inside it. A lab whose process runs is never removed.
 */
static int sweep(bool all)
{
	char tag[XL_LAB_TAG_LEN];
	struct dirent *d;
	int removed = 0;
	DIR *dir = opendir(NETNS_DIR);

	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((d = readdir(dir))) {
		bool manual, unfinished;
		int pid = lab_ns_pid(d->d_name, &manual, tag), user;

		if (pid <= 0 || pid == getpid() || pid_alive(pid))
			continue;
		unfinished = manual && setup_marked(tag);
		if (manual && !unfinished && !all)
			continue;
		if (manual && !unfinished && (user = ns_user(d->d_name))) {
			xl_warn("lab namespace %s is in use by pid %d: kept", d->d_name, user);
			continue;
		}
		xl_info("removing lab namespace %s (%s)", d->d_name,
			!manual ? "its process is gone" :
			unfinished ? "its set-up was killed before it finished" : "asked for");
		xl_lab_del_netns(d->d_name);
		removed++;
		if (unfinished && !lab_ns_left(tag))
			xl_lab_setup_mark(tag, false);
	}
	closedir(dir);
	/* Marks of set-ups killed before their first namespace: nothing else left. */
	dir = opendir(XL_LAB_MARK_DIR);
	while (dir && (d = readdir(dir))) {
		char ns[64];
		bool manual;
		int pid;

		if (strncmp(d->d_name, "setup-", 6))
			continue;
		snprintf(ns, sizeof(ns), "%s-gen", d->d_name + 6);
		pid = lab_ns_pid(ns, &manual, tag);
		if (pid > 0 && pid != getpid() && !pid_alive(pid) && !lab_ns_left(tag))
			xl_lab_setup_mark(tag, false);
	}
	if (dir)
		closedir(dir);
	return removed;
}

int xl_lab_remove(const char *tag)
{
	static const char *const sfx[] = { "-gen", "-dut" };
	char name[64], path[96];
	int i, n = 0;

	if (strncmp(tag, "xl", 2) || strlen(tag) > 16 || strchr(tag, '/'))
		return -EINVAL;
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "%s%s", tag, sfx[i]);
		snprintf(path, sizeof(path), NETNS_DIR "/%s", name);
		if (access(path, F_OK))
			continue;
		xl_lab_del_netns(name);
		n++;
	}
	xl_lab_setup_mark(tag, false); /* a torn-down lab has no set-up left to finish */
	return n ? n : -ENOENT;
}

int xl_lab_sweep(void)
{
	return sweep(false);
}

int xl_lab_remove_all(void)
{
	return sweep(true);
}

const char *xl_lab_tags(char *buf, size_t len)
{
	DIR *d = opendir("/run/netns");
	struct dirent *e;
	size_t n, used = 0;

	buf[0] = 0;
	while (d && (e = readdir(d))) {
		n = strlen(e->d_name);
		if (strncmp(e->d_name, "xl", 2) || n < 5 || strcmp(e->d_name + n - 4, "-gen"))
			continue;
		if (used + n + 2 >= len)
			break;
		used += snprintf(buf + used, len - used, "%s%.*s", used ? ", " : "", (int)(n - 4),
				 e->d_name);
	}
	if (d)
		closedir(d);
	return buf[0] ? buf : "none";
}
