#!/bin/sh
# Regenerates the synthetic fixtures listed in tests/fixtures/synth.list with
# mkdat.py and, with --expected, each scenario's expected texts from upstream's
# report of its v6 file (review the diff before committing it).
# Usage: tests/helper/mkdat-fixtures.sh [--expected]
cd "$(dirname "$0")/../fixtures" || exit 1
UPSTREAM=${UPSTREAM:-/usr/bin/trace-cmd}

python3 ../helper/mkdat.py --make-fixtures synth.list . || exit 1
[ "$1" = --expected ] || exit 0

# latency-clock shares synth-latency.expected: upstream misreads it
grep -v '^#' synth.list | while read -r name ver comp; do
	[ "$ver" = 6 ] && [ "$name" != latency-clock ] || continue
	"$UPSTREAM" report -i "synth-$name-v6.dat" >"synth-$name.expected" || exit 1
done || exit 1

# the reports with options, from each scenario's v6 file
grep -v '^#' synth-variants.list | while read -r name suffix opts; do
	eval "\"\$UPSTREAM\" report $opts -i synth-$name-v6.dat" >"synth-$name.$suffix" ||
		exit 1
done
