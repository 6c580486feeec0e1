// SPDX-License-Identifier: BSD-2-Clause
/*
 * The SVG flame graph. The idea and its look are Brendan Gregg's (the
 * FlameGraph tools; "The Flame Graph", CACM 59(6), 2016): x is the share
 * of samples, y the stack depth, the root at the bottom, siblings in
 * sorted order so equal prefixes merge. The layout walks the sorted folded
 * stacks once, keeping the path of open frames: a frame closes when the
 * next stack leaves it. The SVG carries a small inline script (hover:
 * name, samples, share; click: zoom; "Reset zoom") that finds its own
 * <svg> element, so several graphs can be inlined in one HTML page.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "xdplab/profile.h"
#include "xdplab/escape.h"

#define FRAME_H 16
#define TOP_H 34
#define BOTTOM_H 24
#define MAX_DEPTH 260
/* Frames narrower than this (px) are left out: invisible, and they made most of the file. */
#define MIN_W 0.5
/* The graph is as deep as the stacks that hold at least this share of the samples. */
#define DEEP_SHARE 0.0025

struct open_frame {
	char *name;
	uint64_t start;
};

static int push_rect(struct xl_flame *fl, size_t *cap, const struct open_frame *o, int depth,
		     uint64_t end, double scale)
{
	if (fl->n == *cap) {
		size_t c = *cap ? *cap * 2 : 256;
		struct xl_flame_rect *r = realloc(fl->rects, c * sizeof(*r));

		if (!r)
			return -ENOMEM;
		fl->rects = r;
		*cap = c;
	}
	fl->rects[fl->n++] = (struct xl_flame_rect){
		.x = o->start * scale, .w = (end - o->start) * scale, .depth = depth,
		.samples = end - o->start, .name = o->name,
	};
	if (depth + 1 > fl->depth)
		fl->depth = depth + 1;
	return 0;
}

int xl_flame_layout(struct xl_folded *f, double width, struct xl_flame *out)
{
	struct open_frame path[MAX_DEPTH];
	size_t i, cap = 0, nst = xl_folded__nstacks(f);
	uint64_t pos = 0;
	double scale;
	int open = 0, err = 0;

	memset(out, 0, sizeof(*out));
	out->width = width;
	out->total = xl_folded__samples(f, NULL);
	scale = out->total ? width / out->total : 0;
	for (i = 0; i < nst && !err; i++) {
		uint64_t count;
		const char *st = xl_folded__stack(f, i, &count), *p = st;
		int d = 0;

		/* Walk the frames: keep the open ones that match, close the rest. */
		while (*p && !err) {
			const char *e = strchr(p, ';');
			size_t len = e ? (size_t)(e - p) : strlen(p);

			if (d < open && (strlen(path[d].name) != len || memcmp(path[d].name, p, len))) {
				while (open > d && !err) {
					open--;
					err = push_rect(out, &cap, &path[open], open, pos, scale);
				}
			}
			if (d >= open && d < MAX_DEPTH) {
				path[d].name = strndup(p, len);
				if (!path[d].name) {
					err = -ENOMEM;
					break;
				}
				path[d].start = pos;
				open = d + 1;
			}
			d++;
			p = e ? e + 1 : p + len;
		}
		/* Frames deeper than this stack close too. */
		while (open > d && open > 0 && !err) {
			open--;
			err = push_rect(out, &cap, &path[open], open, pos, scale);
		}
		pos += count;
	}
	while (open > 0 && !err) {
		open--;
		err = push_rect(out, &cap, &path[open], open, pos, scale);
	}
	if (err) {
		while (open > 0)
			free(path[--open].name);
		xl_flame_free(out);
	}
	return err;
}

void xl_flame_free(struct xl_flame *fl)
{
	size_t i;

	for (i = 0; i < fl->n; i++)
		free((char *)fl->rects[i].name);
	free(fl->rects);
	memset(fl, 0, sizeof(*fl));
}

/* FNV-1a, for a stable colour per name. */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* A JIT-ed program's kallsyms name: bpf_prog_<16 hex digits of tag>_<name>. */
static bool is_bpf_prog(const char *name)
{
	int i;

	if (strncmp(name, "bpf_prog_", 9))
		return false;
	for (i = 9; i < 25; i++)
		if (!isxdigit((unsigned char)name[i]))
			return false;
	return name[25] == '_' || !name[25];
}

/* BPF programs green, the CPU roots grey, the rest in the warm palette. */
static void frame_colour(const char *name, int depth, char *buf, size_t len)
{
	uint32_t h = name_hash(name);

	if (is_bpf_prog(name))
		snprintf(buf, len, "rgb(%u,%u,%u)", 60 + h % 40, 170 + (h >> 8) % 50, 70 + (h >> 16) % 40);
	else if (depth == 0)
		snprintf(buf, len, "rgb(%u,%u,%u)", 170, 170, 180);
	else
		snprintf(buf, len, "rgb(%u,%u,%u)", 205 + h % 50, (h >> 8) % 200, (h >> 16) % 55);
}

static const char script[] =
	"<script><![CDATA[\n"
	"(function(svg){\n"
	" var W=+svg.getAttribute('data-w'), T=+svg.getAttribute('data-total');\n"
	" var det=svg.querySelector('.det'), rst=svg.querySelector('.rst');\n"
	" var gs=svg.querySelectorAll('g.f');\n"
	" function fit(g,x,w){var r=g.firstElementChild.nextElementSibling,t=r.nextElementSibling;\n"
	"  r.setAttribute('x',x);r.setAttribute('width',w);\n"
	"  if(t){var n=g.getAttribute('data-n'),c=Math.floor((w-6)/7);\n"
	"   t.setAttribute('x',x+3);t.textContent=c<3?'':(n.length>c?n.slice(0,c-2)+'..':n);}}\n"
	" function zoom(zx,zw){for(var i=0;i<gs.length;i++){var g=gs[i],x=+g.getAttribute('data-x'),\n"
	"  w=+g.getAttribute('data-wd');if(x+w<=zx+1e-9||x>=zx+zw-1e-9){g.style.display='none';continue;}\n"
	"  g.style.display='';var a=Math.max(x,zx),b=Math.min(x+w,zx+zw);fit(g,(a-zx)*W/zw,(b-a)*W/zw);}\n"
	"  rst.style.opacity=zw<W?1:0;}\n"
	" for(var i=0;i<gs.length;i++){(function(g){\n"
	"  g.addEventListener('mouseover',function(){det.textContent=g.getAttribute('data-n')+': '+\n"
	"   g.getAttribute('data-s')+' samples ('+(100*g.getAttribute('data-s')/T).toFixed(2)+'%)';});\n"
	"  g.addEventListener('mouseout',function(){det.textContent=' ';});\n"
	"  g.addEventListener('click',function(){zoom(+g.getAttribute('data-x'),+g.getAttribute('data-wd'));});\n"
	" })(gs[i]);}\n"
	" rst.addEventListener('click',function(){zoom(0,W);});\n"
	"})(document.currentScript.closest('svg'));\n"
	"]]></script>\n";

int xl_flame_svg(struct xl_folded *f, FILE *out, const char *title, double width)
{
	struct xl_flame fl;
	double height;
	size_t i;
	int err, depth;
	bool cut = false;

	err = xl_flame_layout(f, width, &fl);
	if (err)
		return err;
	/*
	 * As deep as the frames of at least DEEP_SHARE of the samples: a deep
	 * stack of a few samples (a recursion 127 frames deep) would
	 * otherwise make the graph mostly empty height. Deeper frames are cut.
	 */
	for (i = 0, depth = 1; i < fl.n; i++)
		if (fl.rects[i].w >= width * DEEP_SHARE && fl.rects[i].depth + 1 > depth)
			depth = fl.rects[i].depth + 1;
	for (i = 0; i < fl.n; i++)
		cut |= fl.rects[i].w >= MIN_W && fl.rects[i].depth >= depth;
	height = TOP_H + depth * FRAME_H + BOTTOM_H;
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"xl-flame\" width=\"%.0f\" "
		"height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" data-w=\"%.0f\" data-total=\"%llu\" "
		"font-family=\"monospace\" font-size=\"12\">\n",
		width, height, width, height, width, (unsigned long long)fl.total);
	fputs("<style>.bg{fill:#f8f8f8}.tx{fill:#222}.f{cursor:pointer}.f:hover rect{stroke:#000;stroke-width:.6}"
	      ".f text{fill:#000;pointer-events:none}.rst{cursor:pointer;opacity:0}"
	      "@media (prefers-color-scheme: dark){.bg{fill:#1c1c1f}.tx{fill:#ddd}}</style>\n", out);
	fprintf(out, "<rect class=\"bg\" width=\"100%%\" height=\"100%%\"/>\n");
	fprintf(out, "<text class=\"tx\" x=\"%.0f\" y=\"20\" text-anchor=\"middle\" font-size=\"15\">",
		width / 2);
	xl_xml_escape_n(out, title ? title : "Flame graph", 200);
	fprintf(out, " (%llu samples%s)</text>\n", (unsigned long long)fl.total,
		cut ? "; frames deeper than the stacks of 0.25% not drawn" : "");
	fputs("<text class=\"tx rst\" x=\"8\" y=\"20\">Reset zoom</text>\n", out);
	fprintf(out, "<text class=\"tx det\" x=\"8\" y=\"%.0f\"> </text>\n", height - 8);
	for (i = 0; i < fl.n; i++) {
		const struct xl_flame_rect *r = &fl.rects[i];
		double y = TOP_H + (depth - 1 - r->depth) * FRAME_H;
		char colour[32];
		int chars;

		if (r->w < MIN_W || r->depth >= depth)
			continue;
		frame_colour(r->name, r->depth, colour, sizeof(colour));
		fprintf(out, "<g class=\"f\" data-x=\"%.3f\" data-wd=\"%.3f\" data-s=\"%llu\" data-n=\"",
			r->x, r->w, (unsigned long long)r->samples);
		xl_xml_escape_n(out, r->name, 400);
		fputs("\"><title>", out);
		xl_xml_escape_n(out, r->name, 400);
		fprintf(out, " (%llu samples, %.2f%%)</title>", (unsigned long long)r->samples,
			fl.total ? 100.0 * r->samples / fl.total : 0);
		fprintf(out, "<rect x=\"%.3f\" y=\"%.0f\" width=\"%.3f\" height=\"%d\" rx=\"2\" fill=\"%s\"/>",
			r->x, y, r->w, FRAME_H - 1, colour);
		chars = (int)((r->w - 6) / 7);
		fprintf(out, "<text x=\"%.3f\" y=\"%.0f\">", r->x + 3, y + 11.5);
		if (chars >= 3) {
			if ((int)strlen(r->name) > chars) {
				xl_xml_escape_n(out, r->name, chars - 2);
				fputs("..", out);
			} else {
				xl_xml_escape_n(out, r->name, 400);
			}
		}
		fputs("</text></g>\n", out);
	}
	fputs(script, out);
	fputs("</svg>\n", out);
	xl_flame_free(&fl);
	return ferror(out) ? -EIO : 0;
}
