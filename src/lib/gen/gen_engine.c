// SPDX-License-Identifier: BSD-2-Clause
/*
 * The generator's engines: live frames (BPF_PROG_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES, kernel commit b530e9e1063e) and AF_PACKET
 * with PACKET_QDISC_BYPASS and sendmmsg. Product code: the fast path.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <net/ethernet.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "xdplab/abi/latency.h"
#include "xdplab/gen.h"
#include "xdplab/log.h"
#include "xdplab/pkt.h"
#include "xdplab/time.h"
#include "gen.skel.h"
#include "gen_priv.h"

/* The size of struct xdp_page_head in the running kernel's BTF (bytes), or 0. */
static uint32_t page_head_size(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const struct btf_type *t;
	uint32_t size = 0;
	int id;

	if (!btf)
		return 0;
	id = btf__find_by_name_kind(btf, "xdp_page_head", BTF_KIND_STRUCT);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (t)
		size = t->size;
	btf__free(btf);
	return size;
}

/* An XDP program "r0 = XDP_DROP; exit" named @name: its fd, or -1 with errno. */
static int load_drop(const char *name)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_DROP },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_XDP, name, "GPL", insns, 2, NULL);
}

/* The linear room of a frame in BPF_PROG_RUN without live frames (bytes), or 0. */
static uint32_t linear_room(void)
{
	static uint8_t frame[4096];
	struct xdp_md ctx = { .data_end = sizeof(frame) };
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = frame, .data_size_in = sizeof(frame),
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .ctx_out = &ctx,
		    .ctx_size_out = sizeof(ctx), .repeat = 1);
	int fd = load_drop("xl_room");
	uint32_t room = 0;

	if (fd < 0)
		return 0;
	/* A frame longer than the page's room: the kernel keeps what fits
	 * (data_end - data) and puts the rest in fragments. */
	if (!bpf_prog_test_run_opts(fd, &o) && ctx.data_end > ctx.data)
		room = ctx.data_end - ctx.data;
	close(fd);
	return room;
}

uint32_t xl_gen_live_frame_max(void)
{
	static uint32_t max;
	uint32_t room, head;

	if (__atomic_load_n(&max, __ATOMIC_RELAXED))
		return max;
	room = linear_room();
	head = page_head_size();
	if (!room || !head || head >= room)
		return 0;
	__atomic_store_n(&max, room - head, __ATOMIC_RELAXED);
	return room - head;
}

int xl_gen_live_check(int *plain_err)
{
	uint8_t frame[64] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, [12] = 0x08 };
	LIBBPF_OPTS(bpf_test_run_opts, plain, .data_in = frame, .data_size_in = sizeof(frame),
		    .repeat = 1);
	LIBBPF_OPTS(bpf_test_run_opts, live, .data_in = frame, .data_size_in = sizeof(frame),
		    .repeat = 1, .flags = BPF_F_TEST_XDP_LIVE_FRAMES);
	int fd = load_drop("xl_live_chk"); /* a live run of it sends nothing anywhere */
	int err;

	if (plain_err)
		*plain_err = 0;
	if (fd < 0)
		return -errno;
	err = bpf_prog_test_run_opts(fd, &plain) ? -errno : 0;
	if (plain_err)
		*plain_err = err;
	if (!err)
		err = bpf_prog_test_run_opts(fd, &live) ? -errno : 0;
	close(fd);
	return err;
}

const char *xl_gen_live_refusal(int err, char *buf, size_t len)
{
	if (err == -EPERM)
		snprintf(buf, len, "refused by this host (BPF_PROG_RUN live frames: %s, EPERM)",
			 strerror(EPERM));
	else
		snprintf(buf, len, "unavailable (%s)", strerror(-err));
	return buf;
}

int xl_gen_live_frames(struct xl_gen *gen, struct xl_gen_cpu *buf, int cpu, uint64_t *frames)
{
	__u32 key = 0;
	int i;

	if (!buf || bpf_map_lookup_elem(bpf_map__fd(gen->skel->maps.gen_state), &key, buf))
		return -ENOENT;
	*frames = 0;
	for (i = 0; i < gen->ncpus; i++)
		if (cpu < 0 || i == cpu)
			*frames += buf[i].frames;
	return 0;
}

void xl_gen_live_count_init(struct gen_thread *t)
{
	struct xl_gen *gen = t->gen;
	int i, where = gen->nthreads == 1 ? -1 : t->cpu >= 0 ? t->cpu : -2;

	/*
	 * Where this thread's frames are counted apart from the others': every
	 * CPU's count when it sends alone, its own CPU's when pinned to a CPU
	 * no other thread has; else nowhere.
	 */
	for (i = 0; where >= 0 && i < gen->nthreads; i++)
		if (i != t->idx && gen->th[i].cpu == where)
			where = -2; /* more threads than CPUs: two share this one's count */
	t->cnt_buf = where > -2 && gen->ncpus > 0 ? calloc(gen->ncpus, sizeof(*t->cnt_buf)) : NULL;
	t->cnt_where = where;
	if (t->cnt_buf && xl_gen_live_frames(gen, t->cnt_buf, where, &t->cnt_base)) {
		free(t->cnt_buf);
		t->cnt_buf = NULL;
	}
}

int xl_gen_send_live(struct gen_thread *t, uint64_t n)
{
	struct xl_gen *gen = t->gen;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = gen->frame,
		    .data_size_in = gen->frame_len, .repeat = (__u32)n,
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		    .batch_size = gen->o.batch ? gen->o.batch : XL_GEN_DEFAULT_BATCH);
	char name[IF_NAMESIZE];
	uint64_t now, before;

	if (bpf_prog_test_run_opts(bpf_program__fd(gen->skel->progs.xdp_gen_redirect),
				   &opts)) {
		if (errno != EINTR)
			return -errno;
		/*
		 * A stop signal (SIGSTOP, Ctrl-Z, a debugger's) or one for the
		 * process ends the run between two batches with EINTR and no
		 * count: the program's own count says how many frames went, the
		 * count at the thread's start plus what it has sent before this
		 * call (no read per call). Unpinned threads share the CPUs'
		 * counts: the whole call is taken as sent (at most one call's
		 * frames off) and said once.
		 */
		before = t->cnt_base + t->sent;
		if (t->cnt_buf && !xl_gen_live_frames(gen, t->cnt_buf, t->cnt_where, &now) && now >= before)
			return (int)(now - before < n ? now - before : n);
		if (!__atomic_exchange_n(&gen->eintr_said, true, __ATOMIC_RELAXED))
			xl_warn("generator interrupted by a signal: its count is the frames asked of the call (unpinned threads: pin them with --cpu for exact counts)");
		return (int)n;
	}
	/*
	 * A redirect to a vanished ifindex drops silently; one check per
	 * call (~200 ms of frames) notices a deleted interface quickly.
	 */
	if (!if_indextoname(gen->ifindex, name))
		return -ENXIO;
	return (int)n;
}

/*
 * --stamp on the packet engine: the stamp (xl_stamp_put()) with @seq and the
 * CLOCK_MONOTONIC time now (the clock bpf_ktime_get_ns() reads, as the live
 * program stamps), the UDP checksum fixed from @csum (the flow's or the
 * template's) as the live program does. Taken before sendmmsg: the latency
 * includes the syscall's path up to this frame.
 */
static void stamp_frame(struct xl_gen *gen, uint8_t *buf, uint16_t csum, uint32_t seq)
{
	xl_stamp_put(buf, gen->payload_off, gen->csum_off, csum, gen->stamp_tmpl_neg, seq,
		     xl_now_ns());
}

/* Send up to @n frames with sendmmsg; return frames accepted or -errno. */
int xl_gen_send_packet(struct gen_thread *t, uint64_t n)
{
	struct xl_gen *gen = t->gen;
	struct mmsghdr msgs[PKT_BATCH];
	struct iovec iov[PKT_BATCH];
	uint64_t flow = t->sent;
	int i, cnt = n > PKT_BATCH ? PKT_BATCH : (int)n, ret;

	memset(msgs, 0, sizeof(msgs));
	for (i = 0; i < cnt; i++) {
		if (gen->pcap.n) {
			size_t k = (t->pcap_pos + i) % gen->pcap.n;

			iov[i].iov_base = gen->pcap.data + gen->pcap.off[k];
			iov[i].iov_len = gen->pcap.len[k];
		} else {
			uint8_t *buf = t->bufs + (size_t)i * t->buf_stride;

			if (!t->bufs_filled)
				memcpy(buf, gen->frame, gen->frame_len);
			if (gen->flows) {
				const struct xl_gen_flow *f =
					&gen->flows[(flow + i) % gen->nflows];

				memcpy(buf + gen->sport_off, &f->src_port, 2);
				memcpy(buf + gen->sport_off + 2, &f->dst_port, 2);
				memcpy(buf + gen->csum_off, &f->l4_csum, 2);
				memcpy(buf + gen->saddr_off, &f->saddr_lo, 2);
				if (gen->ipcsum_off)
					memcpy(buf + gen->ipcsum_off, &f->ip_csum, 2);
				if (gen->o.stamp)
					stamp_frame(gen, buf, f->l4_csum, (uint32_t)(flow + i));
			} else if (gen->o.stamp) {
				uint16_t csum;

				memcpy(&csum, gen->frame + gen->csum_off, 2);
				stamp_frame(gen, buf, csum, (uint32_t)(flow + i));
			}
			iov[i].iov_base = buf;
			iov[i].iov_len = gen->frame_len;
		}
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	if (!gen->pcap.n && cnt == PKT_BATCH)
		t->bufs_filled = true;
	ret = sendmmsg(t->sock, msgs, cnt, 0);
	if (ret < 0) {
		if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR)
			return 0;
		return -errno;
	}
	{
		uint64_t bytes = 0;

		for (i = 0; i < ret; i++)
			bytes += iov[i].iov_len;
		/* Read by xl_gen__read() while we run: one relaxed store per batch. */
		__atomic_store_n(&t->bytes, t->bytes + bytes, __ATOMIC_RELAXED);
	}
	t->pcap_pos += ret;
	return ret;
}

int xl_gen_setup_live(struct xl_gen *gen)
{
	uint32_t i;
	int err;

	gen->skel = gen__open();
	if (!gen->skel)
		return -errno;
	gen->skel->rodata->ifindex_out = gen->ifindex;
	gen->skel->rodata->nr_flows = gen->nflows;
	gen->skel->rodata->one_sender = gen->nthreads == 1;
	gen->skel->rodata->vary_dport = gen->dports > 1;
	gen->skel->rodata->vary_saddr = gen->saddrs > 1;
	gen->skel->rodata->saddr_off = gen->saddr_off;
	gen->skel->rodata->ipcsum_off = gen->ipcsum_off;
	gen->skel->rodata->sport_off = gen->sport_off;
	gen->skel->rodata->csum_off = gen->csum_off;
	if (gen->o.stamp) {
		gen->skel->rodata->stamp = 1;
		gen->skel->rodata->stamp_off = gen->payload_off;
		/* The template's payload bytes, which the stamp replaces: once, here. */
		memcpy((void *)gen->skel->rodata->stamp_tmpl, gen->frame + gen->payload_off,
		       sizeof(gen->skel->rodata->stamp_tmpl));
		memcpy((void *)&gen->skel->rodata->tmpl_csum, gen->frame + gen->csum_off, 2);
	}
	err = gen__load(gen->skel);
	if (err)
		return err;
	for (i = 0; gen->flows && i < gen->nflows; i++) {
		err = bpf_map_update_elem(bpf_map__fd(gen->skel->maps.flows), &i,
					  &gen->flows[i], BPF_ANY);
		if (err)
			return -errno;
	}
	/* Check live frames work here without sending anything. */
	gen->skel->bss->dry_run = 1;
	{
		struct gen_thread probe = { .gen = gen };

		err = xl_gen_send_live(&probe, 1);
	}
	gen->skel->bss->dry_run = 0;
	return err < 0 ? err : 0;
}

int xl_gen_setup_packet(struct gen_thread *t, int ifindex)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_protocol = 0,
				   .sll_ifindex = ifindex };
	int one = 1, fd, err;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* PACKET_QDISC_BYPASS: straight to the driver, as pktgen does. */
	setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		err = -errno;
		close(fd);
		return err;
	}
	if (!t->gen->pcap.n) {
		t->buf_stride = (t->gen->frame_len + 63) & ~63u;
		t->bufs = aligned_alloc(64, (size_t)PKT_BATCH * t->buf_stride);
		if (!t->bufs) {
			close(fd);
			return -ENOMEM;
		}
	}
	t->sock = fd;
	return 0;
}

