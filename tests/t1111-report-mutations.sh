#!/bin/bash
# A short fixed-seed run of the mutation campaign (tests/helper/
# mutate-campaign.py) over v6, v7 zstd, v7 zlib and big-endian files: the
# metadata inconsistencies dat-mutate.py names, then random damage.  No
# crash, no hang, and no silent drop of events that a check could see.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

fixture upstream-v6-sched.dat
fixture upstream-v7-zstd-sched.dat

# campaign ARGS: the campaign with this build; its summary in campaign.out.
campaign() {
	python3 "$HELPERS/mutate-campaign.py" --trace-cmd "$TRACE_CMD" "$@" >campaign.out
	code=$?
	cat campaign.out
	return $code
}

test_expect_success PYTHON 'files of 3 compressed chunks a CPU, v7 zstd and zlib' '
	python3 "$HELPERS/mkdat.py" --scenario chunks --file-version 7 --compression zstd chunks-zstd.dat &&
	python3 "$HELPERS/mkdat.py" --scenario chunks --file-version 7 --compression zlib chunks-zlib.dat
'

test_expect_success PYTHON 'a fixed-seed campaign finds no crash, hang or silent drop' '
	campaign --seed 1111 --count 25 --seconds 400 upstream-v6-sched.dat \
		upstream-v7-zstd-sched.dat chunks-zstd.dat chunks-zlib.dat \
		"$FIXTURES/synth-sched-be64-v6.dat" "$FIXTURES/synth-sched-be32-v7-zstd.dat" \
		"$FIXTURES/synth-sched-v7.dat" &&
	grep -q "^seed 1111: crash 0, hang 0, error [1-9]" campaign.out &&
	grep -q ", warned [1-9][0-9]*," campaign.out
'

# The campaign itself must see a silent drop: a reader that prints only
# the header of every damaged file is one.
test_expect_success PYTHON 'the campaign fails on a reader that drops events in silence' '
	cat >fake-trace-cmd <<-FAKE &&
	#!/bin/sh
	case "\$2" in
	*/m.dat) echo cpus=2 ;;
	*) exec "$TRACE_CMD" "\$@" ;;
	esac
	FAKE
	chmod +x fake-trace-cmd &&
	test_expect_code 1 python3 "$HELPERS/mutate-campaign.py" --trace-cmd ./fake-trace-cmd \
		--seed 1 --count 3 upstream-v6-sched.dat >campaign.out &&
	grep -q "^BAD upstream-v6-sched.dat: page-size=8192 (metadata): silent" campaign.out
'

test_done
