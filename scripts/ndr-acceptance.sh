#!/bin/bash
# Issue 23 item 2's acceptance (docs/ndr.md): xdplab ndr on drop/no-touch,
# on drop/no-touch made slower with --extra-ns 1000 (lab run's calibrated
# busy loop: a DUT slower than the generator, if it can be made so) and on
# xsk-rxdrop/drv, each followed by a 10 s fixed-rate run at the NDR
# (should lose nothing) and one 5% above (should lose, unless the row is
# limited by the generator: then the generator cannot offer it), the time
# each search took, and the host's load. Root; ndr makes and removes its
# own lab. Usage: scripts/ndr-acceptance.sh [OUT] (default: stdout).
cd "$(dirname "$0")/.." || exit 1
X=${XDPLAB:-./build/xdplab} # XDPLAB=path: another binary
out=${1:-/dev/stdout}
{
	echo "# xdplab ndr acceptance, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD)"
	echo "# host: $(uname -r), $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg) (a shared, loaded machine)"
	for run in "drop/no-touch" "drop/no-touch --extra-ns 1000" "xsk-rxdrop/drv"; do
		t0=$(date +%s%N)
		# shellcheck disable=SC2086 # the row and its options are words
		$X ndr --rows $run --trial 1 --verify 10 2>&1
		echo "# exit $?; $run took $((($(date +%s%N) - t0) / 1000000)) ms in all (search, two 10 s runs, latency); load average now $(cut -d' ' -f1-3 /proc/loadavg)"
	done
} >"$out"
