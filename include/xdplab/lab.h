/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file lab.h
 * The veth lab: a veth pair whose generator end lives in one network
 * namespace and whose device-under-test (DUT) end lives in another, with
 * fixed MACs and addresses from the benchmarking ranges 198.18.0.0/15
 * (RFC 2544) and 2001:2::/48 (RFC 5180), only on those veths.
 *
 * Names are unique per process and per lab ("xl<pid><letter>"), so two runs
 * or two tests never collide. Every lab created is registered and destroyed
 * by xl_lab__destroy(), or at exit() by an atexit handler; a lab left by a
 * SIGKILLed process is removed by the next xl_lab_sweep() (its pid is dead).
 * Links and namespaces are made with iproute2 (`ip`), as the guide asks.
 */
#ifndef XDPLAB_LAB_H
#define XDPLAB_LAB_H

#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <net/if.h>
#include <netinet/in.h>

/** The two ends of the lab. */
enum xl_lab_side {
	XL_LAB_GEN = 0, /**< the traffic generator's end */
	XL_LAB_DUT = 1, /**< the device under test's end */
};

/**
 * How the DUT's receive NAPI is placed (see docs/lab.md for the figures).
 * veth schedules the peer's NAPI on the sender's CPU by default.
 */
enum xl_wiring {
	/** NAPI in softirq on the generator's CPU: never overflows the veth
	 * ring, but generator and DUT share one core. */
	XL_WIRING_SOFTIRQ = 0,
	/** threaded NAPI (GRO on, so it survives attach/detach), its kthread
	 * pinned to another CPU than the generator's. */
	XL_WIRING_THREADED = 1,
	/** a real interface (`lab run --dut`): its NAPI placement is the
	 * device's own and xdplab changes nothing. */
	XL_WIRING_DEVICE = 2,
};

/** xl_wiring_name() - "softirq", "threaded" or "device". */
const char *xl_wiring_name(enum xl_wiring w);

/** Most extra "out" veth pairs a lab can have (redirect targets). */
#define XL_LAB_MAX_OUT 4

/**
 * struct xl_lab_opts - how to build a lab.
 * @queues: RX/TX queues per veth end (1..64; 0 means 1).
 * @manual: a lab made by `xdplab lab setup`, which outlives its process:
 *          its tag starts with "xlm"; xl_lab_sweep() leaves it alone once
 *          its set-up finished (a mark in /run/xdplab says it had not).
 * @out_pairs: extra veth pairs for XDP_REDIRECT to go to (0..XL_LAB_MAX_OUT,
 *          default 0). Pair i has its DUT end "<tag>r<i>d" in the DUT
 *          namespace (no addresses, IPv6 off: it sends nothing) and its far
 *          end "<tag>r<i>s" in the generator namespace with GRO on, so it
 *          always has a NAPI and accepts redirected frames (attach an
 *          XDP_DROP there to count them).
 */
struct xl_lab_opts {
	int queues;
	bool manual;
	int out_pairs;
};

/**
 * struct xl_lab - one lab. Filled by xl_lab__create(); owned by the caller,
 * who must call xl_lab__destroy() (also run at exit for every live lab).
 * Index arrays by enum xl_lab_side.
 * @tag: unique name prefix, e.g. "xl4242a".
 * @ns: namespace names under /run/netns, e.g. "xl4242a-gen".
 * @ifname: veth names, e.g. "xl4242ag" (generator) and "xl4242ad" (DUT).
 * @ifindex: the veths' ifindexes, each in its own namespace.
 * @mac: fixed MACs 02:58:4c:00:00:01 (gen) and 02:58:4c:00:00:02 (DUT).
 * @ip4: 198.18.0.1 (gen) and 198.18.0.2 (DUT), prefix /24.
 * @ip6: 2001:2::1 and 2001:2::2, prefix /64; only the DUT end has its
 *       address: IPv6 is off at the generator end, so the kernel sends
 *       nothing there (no RS, MLD or DAD) and counts stay exact.
 * @ns_fd: open fds of the namespaces; @root_ns_fd: the creator's netns.
 * @queues: queues per veth end.
 * @wiring: the current wiring; @napi_cpu: where the DUT's NAPI kthread is
 *          pinned (threaded), -1 otherwise.
 * @nout: extra "out" pairs (xl_lab_opts.out_pairs); @out_ifname/@out_ifindex:
 *        their ends indexed [pair][side]: XL_LAB_DUT is the redirect target
 *        in the DUT namespace, XL_LAB_GEN the far end (sink) in the
 *        generator namespace; ifindexes are each in their own namespace.
 *        MACs: 02:58:4c:00:1<i>:02 (DUT end) and 02:58:4c:00:1<i>:01 (far).
 */
struct xl_lab {
	char tag[12];
	char ns[2][32];
	char ifname[2][IF_NAMESIZE];
	int ifindex[2];
	uint8_t mac[2][6];
	struct in_addr ip4[2];
	struct in6_addr ip6[2];
	int ns_fd[2];
	int root_ns_fd;
	int queues;
	enum xl_wiring wiring;
	int napi_cpu;
	bool live;
	int nout;
	char out_ifname[XL_LAB_MAX_OUT][2][IF_NAMESIZE];
	int out_ifindex[XL_LAB_MAX_OUT][2];
};

/**
 * xl_lab__create() - create namespaces, the veth pair, addresses; bring
 * everything up. On failure everything made so far is removed.
 * Return: 0, or -errno (-ENOENT: iproute2 missing, -EPERM: not root,
 * -EINVAL: bad options); the cause is logged in one line.
 */
int xl_lab__create(struct xl_lab *lab, const struct xl_lab_opts *opts);

/**
 * xl_lab__open_device() - a lab that is a view of a real interface in the
 * caller's network namespace (`lab run --dut IFACE`): only the DUT side is
 * filled (@ifname, @ifindex, @mac, the first IPv4 address in @ip4 or
 * 198.18.0.2 when it has none, @queues from /sys/class/net/IFACE/queues),
 * both @ns_fd and @root_ns_fd are the caller's netns, @wiring is
 * XL_WIRING_DEVICE, @nout 0. Nothing is created: xl_lab__destroy() only
 * closes its fds. Return: 0, or -ENODEV (no such interface; logged) or
 * another -errno.
 */
int xl_lab__open_device(struct xl_lab *lab, const char *ifname);

/**
 * xl_lab__destroy() - delete the namespaces (which deletes the veths) and
 * close fds. Safe on a zeroed or already destroyed lab. Async-signal
 * unsafe: call it from normal control flow, not from a signal handler.
 */
void xl_lab__destroy(struct xl_lab *lab);

/**
 * xl_lab__release() - forget @lab without deleting it (a manual lab made by
 * `xdplab lab setup` outlives the process): unregister it from the exit
 * handler and close its fds.
 */
void xl_lab__release(struct xl_lab *lab);

/**
 * xl_lab__print() - @lab's names on @out, as `lab setup` prints them: "lab
 * TAG", then a line per end ("gen IFNAME netns NS IPV4 MAC", "dut ...")
 * and per out pair ("outN IFNAME netns NS -> IFNAME netns NS").
 */
void xl_lab__print(FILE *out, const struct xl_lab *lab);

/**
 * xl_lab__irqs() - the DUT interface's IRQs for a results file's machine
 * object: with @dut (a --dut interface), its IRQ:CPUs list into @buf
 * (@len bytes; xl_irq_affinity()); *@note says what they are, or why there
 * are none (veth has none). Return: @buf, or NULL when there are none.
 */
const char *xl_lab__irqs(const struct xl_lab *lab, bool dut, char *buf, size_t len,
			 const char **note);

/**
 * xl_lab__enter() - move the calling THREAD into the namespace of @side
 * (setns is per thread). Return: 0 or -errno.
 */
int xl_lab__enter(const struct xl_lab *lab, enum xl_lab_side side);

/** xl_lab__leave() - move the calling thread back to the creator's netns. */
int xl_lab__leave(const struct xl_lab *lab);

/**
 * xl_lab__create_in() - call @create(@arg) with the calling thread in the
 * namespace of @side (objects that name interfaces are created where the
 * interfaces are), then come back. Ownership of the result is the caller's.
 * Return: what @create returned, errno as @create left it; NULL with errno
 * set when the namespace could not be entered.
 */
void *xl_lab__create_in(const struct xl_lab *lab, enum xl_lab_side side,
			void *(*create)(const void *arg), const void *arg);

/**
 * xl_lab__socket() - a socket(domain, type, 0) created in the namespace of
 * @side (for ethtool ioctls, AF_PACKET), without moving the caller.
 * Return: fd (caller closes) or -errno.
 */
int xl_lab__socket(const struct xl_lab *lab, enum xl_lab_side side, int domain,
		   int type);

/**
 * xl_lab__wire() - set the DUT's NAPI placement.
 * @napi_cpu: CPU for the NAPI kthread(s) in XL_WIRING_THREADED (ignored in
 *            softirq mode).
 * Threaded mode turns GRO on at the DUT end and writes
 * /sys/class/net/DEV/threaded, then pins every "napi/DEV-*" kthread.
 * Return: 0, or -errno (-EOPNOTSUPP: threaded NAPI unavailable).
 */
int xl_lab__wire(struct xl_lab *lab, enum xl_wiring wiring, int napi_cpu);

/**
 * xl_lab__napi_pid() - pid of the DUT end's NAPI kthread (threaded wiring),
 * re-pinned to lab->napi_cpu if it changed. Return: pid, 0 if there is
 * none, or -errno when it cannot be pinned (logged: the row's placement
 * would not be the one it reports).
 */
int xl_lab__napi_pid(struct xl_lab *lab);

/**
 * xl_lab__exec() - run `ip netns exec <ns of side> argv...` and wait.
 * Return: the command's exit status (0..255), or -errno if it could not run.
 * Its stderr is logged at INFO level when it fails.
 */
int xl_lab__exec(const struct xl_lab *lab, enum xl_lab_side side,
		 char *const argv[]);

/**
 * xl_lab_sweep() - remove the namespaces of labs whose creating process is
 * dead (left by SIGKILL), and of manual labs whose `lab setup` was killed
 * before it finished (its mark /run/xdplab/setup-TAG is still there and its
 * pid is dead); finished manual labs are kept.
 * Return: number of namespaces removed, or -errno.
 */
int xl_lab_sweep(void);

/**
 * xl_lab_remove() - delete the namespaces "<tag>-gen" and "<tag>-dut" of a
 * lab (and so its veths), whatever state the rest of it is in.
 * Return: number of namespaces removed, -ENOENT if the lab has none, or
 * -EINVAL if @tag is not an xdplab lab tag.
 */
int xl_lab_remove(const char *tag);

/**
 * xl_lab_tags() - the labs present, for the error of an unknown tag: the
 * tags of the /run/netns/xl*-gen namespaces, comma-separated into @buf
 * (@len bytes; those that do not fit are left out). Return: @buf, or
 * "none" (static) when there are none.
 */
const char *xl_lab_tags(char *buf, size_t len);

/**
 * xl_lab_remove_all() - remove every xdplab lab namespace, manual ones too
 * (`xdplab lab teardown --all`, `xdplab cleanup --labs`), except the labs of
 * processes still running and manual labs another live process is inside
 * (another user's benchmark or shell: warned and kept). Return: number
 * removed.
 */
int xl_lab_remove_all(void);

#endif /* XDPLAB_LAB_H */
