#!/usr/bin/env bash
# make coverage: run the tests on the --coverage build and report line and
# branch coverage of src/lib with gcovr.
#   scripts/coverage.sh COV_DIR UNIT_BIN...
# COVERAGE_E2E=0 runs only the unit tests. Writes build/coverage.txt (per
# file, with the lines no test reached) and build/coverage.html; prints
# gcovr's summary. Exit 1 if a test run failed (the report is still made).
set -u -o pipefail
cd "$(dirname "$0")/.."
cov=$1
shift
command -v gcovr >/dev/null || { echo "coverage: gcovr not found (scripts/deps.sh --coverage installs it)" >&2; exit 1; }
find "$cov" -name '*.gcda' -delete
rc=0
./tests/unit/run.sh "$@" | sed 's/^unit:/unit (coverage):/' || rc=1
if [ "${COVERAGE_E2E:-1}" != 0 ]; then
	XDPLAB="$PWD/$cov/xdplab" ./tests/e2e/run.sh || rc=1
fi
# Only the library: the commands are counted by what they call into it.
gcovr --root . --object-directory "$cov" --filter 'src/lib/' \
	--txt build/coverage.txt --html build/coverage.html --print-summary
gcovr --root . --object-directory "$cov" --filter 'src/lib/' --branches \
	--txt build/coverage-branches.txt >/dev/null
echo "coverage: build/coverage.txt (lines), build/coverage-branches.txt (branches), build/coverage.html"
exit $rc
