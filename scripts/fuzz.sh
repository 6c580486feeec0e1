#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Run the libFuzzer targets built by `make fuzz` (build/fuzz/fuzz_NAME), each
# for FUZZ_SECONDS (default 600; FUZZ_RUNS=N stops a target sooner, after N
# executions), one after the other, on its corpus in
# build/fuzz/corpus-NAME, seeded first:
#   pcap     the project's captures (build/test-pcaps) and ../shared/corpus's
#   parse    every frame of those captures, one file each
#   opts     argv vectors from the option tests (NUL-separated words)
#   compare  the committed results files (bench/*.json) and their cuts, with
#            a dictionary (build/fuzz/compare.dict) of JSON's tokens and every
#            key of docs/results.schema.json and of those files, made here
#   report   the same seeds and dictionary (build/fuzz/report.dict), and the
#            hand-made latency runs (tests/unit/data/lat-*.json)
#            FUZZ_SMALL=1 (these two only): the results files with every
#            array cut to its first 5 members instead (rows, repetitions,
#            buckets; bench/*.json and bench/*/*/*/*.json, so the newer
#            members too), in build/fuzz/corpus-NAME-small: the same
#            structure and paths in ~12 KB, about ten times the executions
#            a second of the whole 80-160 KB files (each input is parsed whole)
#   mapfile  the example map files (examples/*.txt) and a few lines of every
#            accepted form, each behind every map selector byte (0..7)
#   folded   the perf script texts of tests/unit/data (behind '0') and
#            folded text (behind '1')
# A finding stops that target: its input is left as build/fuzz/NAME-crash-*
# and the script exits 1. The last line per target gives its executions.
#   scripts/fuzz.sh [NAME...]
set -u
cd "$(dirname "$0")/.."
B=build/fuzz
SECS=${FUZZ_SECONDS:-600}
RUNS=${FUZZ_RUNS:--1}
CORPUS_DIR=${XL_CORPUS_DIR:-../shared/corpus/tcpdump}
[ $# -gt 0 ] || set -- pcap parse opts compare report mapfile folded
status=0

seed() {
	local name=$1 dir=$2
	mkdir -p "$dir"
	case $name in
	pcap)
		cp build/test-pcaps/*.pcap "$dir/" 2>/dev/null
		[ -d "$CORPUS_DIR" ] && find "$CORPUS_DIR" -maxdepth 1 -name '*.pcap*' -size -64k -exec cp {} "$dir/" \;
		;;
	parse)
		python3 - "$dir" build/test-pcaps "$CORPUS_DIR" <<'PY'
import os, struct, sys
out, srcs = sys.argv[1], sys.argv[2:]
n = 0
for s in srcs:
    if not os.path.isdir(s):
        continue
    for name in sorted(os.listdir(s)):
        d = open(os.path.join(s, name), "rb").read()
        if len(d) < 24:
            continue
        m = struct.unpack("<I", d[:4])[0]
        e = "<" if m in (0xa1b2c3d4, 0xa1b23c4d) else ">" if m in (0xd4c3b2a1, 0x4d3cb2a1) else None
        if not e or struct.unpack(e + "I", d[20:24])[0] != 1:
            continue
        o = 24
        while o + 16 <= len(d) and n < 4000:
            cap = struct.unpack(e + "I", d[o + 8:o + 12])[0]
            fr = d[o + 16:o + 16 + cap]
            o += 16 + cap
            if len(fr) < cap:
                break
            open(os.path.join(out, "f%05d" % n), "wb").write(fr)
            n += 1
PY
		;;
	opts)
		local i=0 v
		for v in "--count 5 eth0" "-n5 -v -v eth0" "--size=60 eth0" "--force=yes eth0" "--cou 5" \
			 "-vvn 7 eth0" "--mode skb --interval 0.5 eth0" "eth0 --count" "-- -n 5" "--help" \
			 "--interval 1e-3 eth0" "--size 99999999999999999999 eth0" "-m drv -i .5 x"; do
			printf '%s' "$v" | tr ' ' '\0' >"$dir/seed$i"
			i=$((i + 1))
		done
		;;
	mapfile)
		local f m
		printf '0 0x0102030405060708\n1 7 # c\n\n15 18446744073709551615\n' >"$dir/lines.txt"
		printf '10.0.0.0/8 1\n192.168.1.1 0x0002\n::1/128 3\nfe80::1 0x01\n' >>"$dir/lines.txt"
		for f in examples/*.txt "$dir/lines.txt"; do
			for m in 0 1 2 3 4 5 6 7; do
				{ printf "\\$(printf %03o "$m")"; cat "$f"; } >"$dir/$(basename "$f" .txt)-$m"
			done
		done
		rm -f "$dir/lines.txt"
		;;
	folded)
		local f
		for f in tests/unit/data/perf-script*.txt; do
			{ printf 0; cat "$f"; } >"$dir/$(basename "$f" .txt)"
		done
		printf '1cpu0 dut;swapper;do_idle;cpu_startup 3\ncpu1 gen;xdplab;main 18446744073709551\n' >"$dir/folded"
		;;
	compare | report)
		local f
		[ "$name" = report ] && cp tests/unit/data/lat-*.json "$dir/"
		if [ "${FUZZ_SMALL:-0}" = 1 ]; then
			python3 - "$dir" bench/*.json bench/*/*/*/*.json <<'PY'
import json, os, sys
def cut(o):
    if isinstance(o, dict):
        return {k: cut(v) for k, v in o.items()}
    if isinstance(o, list):
        return [cut(v) for v in o[:5]]
    return o
for path in sys.argv[2:]:
    try:
        d = json.load(open(path))
    except ValueError:
        continue
    name = path.replace('/', '_')
    open(os.path.join(sys.argv[1], name), 'w').write(json.dumps(cut(d), indent=1))
PY
		else
		for f in bench/*.json; do
			[ -f "$f" ] || continue
			cp "$f" "$dir/"
			head -c 2000 "$f" >"$dir/$(basename "$f").cut"
		done
		fi
		python3 - docs/results.schema.json bench/*.json >"$B/$name.dict" <<'PY'
import json, sys
keys = set()
def walk(o, schema):
    if isinstance(o, dict):
        for k, v in o.items():
            if not schema:
                keys.add(k)
            elif k == "properties" and isinstance(v, dict):
                keys.update(v)
            walk(v, schema)
    elif isinstance(o, list):
        for v in o:
            walk(v, schema)
for i, path in enumerate(sys.argv[1:]):
    try:
        walk(json.load(open(path)), i == 0)
    except ValueError:
        pass
toks = ['{', '}', '[', ']', ':', ',', 'null', 'true', 'false', '-1', '0', '1e308', '-0', '0.5',
        '"', '\\u0000', '18446744073709551616', 'NaN']
toks += ['"%s":' % k for k in sorted(keys) if k.isprintable() and '"' not in k and '\\' not in k]
for i, t in enumerate(toks):
    print('k%d="%s"' % (i, t.replace('\\', '\\\\').replace('"', '\\"')))
PY
		;;
	esac
}

for name in "$@"; do
	bin=$B/fuzz_$name
	[ -x "$bin" ] || { echo "fuzz: $bin is not built (make fuzz)"; status=1; continue; }
	corpus=$B/corpus-$name
	case "$name:${FUZZ_SMALL:-0}" in
	compare:1 | report:1) corpus=$B/corpus-$name-small ;;
	*:0 | *:1) ;;
	*) echo "fuzz: FUZZ_SMALL='${FUZZ_SMALL}' is not accepted (accepted: 0, 1)"; exit 2 ;;
	esac
	seed "$name" "$corpus"
	echo "fuzz: $name for $SECS s on $(ls "$corpus" | wc -l) seeds"
	dict=()
	[ -f "$B/$name.dict" ] && dict=(-dict="$B/$name.dict")
	# Inputs are cut at -max_len: at least the largest seed, else the
	# results files (80-160 KB) reach the target cut, invalid JSON all,
	# and the whole run stays on one error path (it did: start coverage 8).
	maxlen=$(find "$corpus" -type f -printf '%s\n' | sort -n | tail -1)
	floor=65536
	[ "$corpus" = "$B/corpus-$name" ] || floor=16384 # FUZZ_SMALL: ~12 KB seeds
	[ "${maxlen:-0}" -ge "$floor" ] || maxlen=$floor
	"$bin" "${dict[@]}" -max_total_time="$SECS" -runs="$RUNS" -print_final_stats=1 -artifact_prefix="$B/$name-" \
		-max_len="$maxlen" -timeout=10 -rss_limit_mb=2048 "$corpus" >"$B/$name.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$name.log" | tail -1)
	cov0=$(sed -n 's/^#[0-9]*[[:space:]]*INITED cov: \([0-9]*\).*/\1/p' "$B/$name.log" | head -1)
	cov1=$(sed -n 's/^#[0-9]*[[:space:]]*DONE *cov: \([0-9]*\).*/\1/p' "$B/$name.log" | tail -1)
	echo "fuzz: $name: exit $rc, ${execs:-?} executions, max_len $maxlen, coverage ${cov0:-?} at start, ${cov1:-?} at the end, corpus $(ls "$corpus" | wc -l) inputs$(ls "$B/$name-"* 2>/dev/null | sed 's/^/, finding /' | tr '\n' ' ')"
	[ "$rc" -eq 0 ] || { tail -30 "$B/$name.log"; status=1; }
done
exit $status
