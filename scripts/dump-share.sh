#!/bin/bash
# The captured share of xdplab dump at full speed (docs/dump.md): own hook,
# XDP_DROP, 3 s unpaced floods from gen, 64 and 1500 B, default and 64 B
# snaplen, 3 repetitions interleaved. Root; makes and removes its own lab.
# FORMATS="pcap pcapng" interleaves the two file formats too (default pcap);
# SIZES="64" measures one size (default "64 1500").
T=$(mktemp -d)
cd "$(dirname "$0")/.." && X=./build/xdplab
out=$($X lab setup); L=$(echo "$out" | awk '/^lab/{print $2}')
trap "$X lab teardown $L >/dev/null; rm -rf $T" EXIT
for rep in 1 2 3; do
 for size in ${SIZES:-64 1500}; do
  for snap in 16384 64; do
   for fmt in ${FORMATS:-pcap}; do
   $X dump --netns $L-dut ${L}d -w $T/m.$fmt -a drop -q -s $snap > $T/m.out 2>$T/m.err & P=$!
   for i in $(seq 50); do grep -qs Ctrl-C $T/m.err && break; sleep 0.05; done
   $X gen --netns $L-gen ${L}g --duration 3 --size $size -q > $T/g.out 2>&1
   sleep 0.3; kill -INT $P; wait $P; rc=$?
   tot=$(grep ^totals $T/m.out)
   seen=$(sed -E 's/^totals: seen ([0-9]+) frames.*/\1/' <<<"$tot"); wr=$(sed -E 's/.*; written ([0-9]+) .*/\1/' <<<"$tot")
   echo "rep $rep size $size snaplen $snap format $fmt rc $rc seen $seen written $wr share $(awk -v a=$wr -v b=$seen 'BEGIN{printf "%.3f", a/b}') seen_pps $(awk -v b=$seen 'BEGIN{printf "%.0f", b/3}')"
   rm -f $T/m.$fmt
   done
  done
 done
done
