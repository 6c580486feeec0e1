#!/usr/bin/env bash
# Install the Debian packages that xdplab's build, tests and lab need.
# Installs only what is missing; safe to run again. Must run as root
# (sudo is not assumed to exist).
set -euo pipefail

PKGS=(
	make gcc clang llvm pkg-config        # toolchain; clang -target bpf for bpf/
	libbpf-dev bpftool                    # loading, skeletons (bpftool gen skeleton)
	libxdp-dev                            # xsk API (UMEM, rings) for AF_XDP
	libpcap-dev                           # --pcap replay
	libjansson-dev                        # JSON results
	libcmocka-dev                         # unit tests
	libelf-dev zlib1g-dev                 # libbpf's link dependencies
	libmnl-dev                            # netlink (link facts, peer XDP state)
	linux-libc-dev                        # kernel UAPI headers
	iproute2 ethtool procps jq            # lab (netns, veth), ethtool -S, tests
	python3 python3-jsonschema            # tests: results JSON against docs/results.schema.json
	linux-perf                            # --profile: perf record / perf script (docs/profile.md)
)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages: ${missing[*]}; run as root to install them" >&2
	exit 1
fi

echo "deps.sh: installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
