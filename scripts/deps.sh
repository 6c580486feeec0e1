#!/usr/bin/env bash
# Install the Debian packages that xdplab's build, tests and lab need.
# Installs only what is missing; safe to run again. Must run as root
# (sudo is not assumed to exist). --test: also the packages only the tests need;
# --coverage: those and gcovr (make coverage).
set -euo pipefail

PKGS=(
	make gcc clang llvm pkg-config        # toolchain; clang -target bpf for bpf/
	libclang-rt-dev                       # make fuzz: libFuzzer and the sanitizers' runtimes for clang
	libbpf-dev bpftool                    # loading, skeletons (bpftool gen skeleton)
	libxdp-dev                            # xsk API (UMEM, rings) for AF_XDP
	libpcap-dev                           # --pcap replay
	libjansson-dev                        # JSON results
	libsqlite3-dev libpq-dev              # the results store: SQLite file, or a shared PostgreSQL (docs/store.md)
	libcmocka-dev                         # unit tests
	libelf-dev zlib1g-dev                 # libbpf's link dependencies; zlib reads /proc/config.gz too
	libmnl-dev                            # netlink (link facts, peer XDP state)
	libnftables-dev nftables              # the stack-drop row's nftables rule; tests list tables
	linux-perf                            # --profile (docs/profile.md); the watch-cost rows' perf listener (lab run --with-perf)
	linux-libc-dev                        # kernel UAPI headers
	iproute2 ethtool procps jq            # lab (netns, veth), ethtool -S, tests
	python3 python3-jsonschema            # tests: results JSON against docs/results.schema.json
)
# Only for the tests (deps.sh --test, which make check runs; make demo does not).
TEST_PKGS=(
	openssh-server openssh-client         # lab run --dut --gen-host over ssh into a lab netns
	chromium                              # the HTML report opened in headless Chromium (tests/e2e/profile.sh)
	tcpdump                               # dump's pcapng files read back by tcpdump (e2e dump-pcapng)
	postgresql                            # the store's PostgreSQL tests: a server started in a temporary directory (tests/e2e/store.sh)
	libxml2-utils                         # xmllint: compare --format junit validated against tests/e2e/junit.xsd
	prometheus                            # promtool check metrics on --prometheus's files (its server is not started: policy-rc.d below)
	valgrind                              # callgrind: scripts/xsk-instr.sh's instructions per frame (issue20-accept.sh ONLY=xsk)
)

[ "${1:-}" = --test ] && PKGS+=("${TEST_PKGS[@]}")
[ "${1:-}" = --coverage ] && PKGS+=("${TEST_PKGS[@]}" gcovr)

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
# openssh-server's postinst would start an sshd on every address of the
# machine: the tests start their own, in a namespace, on a lab address.
# policy-rc.d (exit 101: "not allowed") keeps it from starting; ours is
# removed afterwards, one the machine had is left alone.
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e $policy ]; then
	printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy && made_policy=1
fi
rc=0
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || rc=$?
[ $made_policy = 1 ] && rm -f $policy
exit $rc
