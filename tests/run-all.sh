#!/usr/bin/env bash
# make check: unit tests, then end-to-end tests; one closing line with the
# sum of both: "check: N passed, N failed, N skipped". Exit 1 if any failed.
set -u
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skip=0 rc=0
add() { # add the counts of the last "...: N passed, N failed, N skipped" line
	local line
	line=$(grep -E '^[a-z0-9-]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
	if [ -z "$line" ]; then
		echo "check: $1 printed no summary line"
		fail=$((fail + 1))
		return
	fi
	pass=$((pass + $(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')))
	fail=$((fail + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
	skip=$((skip + $(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p' | grep . || echo 0)))
}
./tests/unit/run.sh build/tests/test_* 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
add unit
if ./scripts/docs-help.sh --check; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); rc=1
fi
if ./scripts/check-layers.sh; then
	pass=$((pass + 1))
else
	fail=$((fail + 1)); rc=1
fi
./tests/e2e/run.sh "$@" 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
add e2e
echo "check: $pass passed, $fail failed, $skip skipped"
[ $rc -eq 0 ] && [ $fail -eq 0 ]
