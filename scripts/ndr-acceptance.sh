#!/bin/bash
# Issue 23 item 2's acceptance (docs/ndr.md): xdplab ndr on drop/no-touch
# and on xsk-rxdrop/drv, each followed by a 10 s fixed-rate run at the NDR
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
	for row in drop/no-touch xsk-rxdrop/drv; do
		t0=$(date +%s%N)
		$X ndr --rows "$row" --trial 1 --verify 10 2>&1
		echo "# exit $?; $row took $((($(date +%s%N) - t0) / 1000000)) ms in all (search, two 10 s runs, latency)"
	done
	echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out"
