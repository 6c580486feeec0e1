#!/usr/bin/env python3
"""bench/limits/summarize.py - medians over the repetitions of a
bench/limits/profile.sh output: per tool and CPU, each part's share of
this lab's samples and its ns per packet (median, min..max).

    bench/limits/summarize.py bench/limits/profile-rxdrop.txt
"""
import re
import statistics
import sys
from collections import defaultdict

rows = defaultdict(lambda: defaultdict(list))  # (tool, cpu) -> part -> [(share, ns)]
tot = defaultdict(list)
tool = cpu = None
for line in open(sys.argv[1]):
    m = re.match(r"^## \S+ rep \d+ (\S+): ([\d.]+) Mpps", line)
    if m:
        tool = m.group(1)
        continue
    m = re.match(r"^CPU(\d+): .*this lab's \d+ \(([\d.]+)% of the CPU\), ([\d.]+) ns/packet", line)
    if m:
        cpu = int(m.group(1))
        tot[(tool, cpu)].append((float(m.group(2)), float(m.group(3))))
        continue
    m = re.match(r"^\s+([\d.]+)%\s+([\d.]+) ns/pkt\s+\d+\s+(.*)$", line)
    if m and tool:
        rows[(tool, cpu)][m.group(3)].append((float(m.group(1)), float(m.group(2))))


def med(v):
    return f"{statistics.median(v):.1f} ({min(v):.1f}..{max(v):.1f})"


for key in sorted(rows):
    t, c = key
    n = len(tot[key])
    print(f"{t} CPU{c}: this lab's ns/packet {med([x[1] for x in tot[key]])}, "
          f"{med([x[0] for x in tot[key]])}% of the CPU, {n} reps")
    parts = sorted(rows[key].items(), key=lambda kv: -statistics.median([x[1] for x in kv[1]]))
    for p, v in parts:
        if statistics.median([x[0] for x in v]) < 0.5:
            continue
        # a part absent from a repetition counts as 0 there
        sh = [x[0] for x in v] + [0.0] * (n - len(v))
        ns = [x[1] for x in v] + [0.0] * (n - len(v))
        print(f"  share {med(sh):>20}%  {med(ns):>24} ns/pkt  {p}")
