#!/bin/sh
# Regenerates the synthetic fixtures listed in tests/fixtures/synth.list with
# mkdat.py and, with --expected, each scenario's expected text from upstream's
# report of its v6 file (review the diff before committing it).
# Usage: tests/helper/mkdat-fixtures.sh [--expected]
cd "$(dirname "$0")/../fixtures" || exit 1
UPSTREAM=${UPSTREAM:-/usr/bin/trace-cmd}

# fixture_name SCENARIO VERSION COMPRESSION
fixture_name() {
	case $3 in
	none) echo "synth-$1-v$2.dat" ;;
	*) echo "synth-$1-v$2-$3.dat" ;;
	esac
}

grep -v '^#' synth.list | while read -r name ver comp; do
	out=$(fixture_name "$name" "$ver" "$comp")
	python3 ../helper/mkdat.py --scenario "$name" --file-version "$ver" \
		--compression "$comp" "$out" || exit 1
	# latency-clock shares synth-latency.expected: upstream misreads it
	if [ "$1" = --expected ] && [ "$ver" = 6 ] && [ "$name" != latency-clock ]; then
		"$UPSTREAM" report -i "$out" >"synth-$name.expected" || exit 1
	fi
done || exit 1

# the reports with options, from each scenario's v6 file
[ "$1" = --expected ] || exit 0
grep -v '^#' synth-variants.list | while read -r name suffix opts; do
	eval "\"\$UPSTREAM\" report $opts -i synth-$name-v6.dat" >"synth-$name.$suffix" ||
		exit 1
done
