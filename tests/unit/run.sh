#!/usr/bin/env bash
# Run the cmocka unit test binaries given as arguments; sum their results
# into one closing line "N passed, N failed, N skipped".
set -u
pass=0 fail=0 skip=0
for bin in "$@"; do
	out=$(CMOCKA_MESSAGE_OUTPUT=stdout "$bin" 2>&1)
	rc=$?
	echo "$out"
	p=$(echo "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(echo "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	s=$(echo "$out" | sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' | tail -1)
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0})); skip=$((skip + ${s:-0}))
	if [ $rc -ne 0 ] && [ -z "$f" ]; then
		echo "unit: $bin exited $rc without a cmocka summary"
		fail=$((fail + 1))
	fi
done
echo "unit: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
