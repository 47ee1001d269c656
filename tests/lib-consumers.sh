# SPDX-License-Identifier: GPL-2.0
# Real viewers of convert --to chrome-json, run by tests/consumers/check.mjs,
# and DuckDB, run by tests/consumers/duckdb.mjs:
#
#   . "$TEST_DIR"/lib-consumers.sh
#   test_expect_success SPEEDSCOPE '...' 'consumer_check speedscope out.json'
#   test_expect_success DUCKDB '...' 'duckdb_run queries.sql'
#
# Prerequisites: TRACE_ENGINE, DevTools' trace engine under node; SPEEDSCOPE,
# speedscope's page in headless Chromium ($CHROMIUM, else /usr/bin/chromium);
# DUCKDB, DuckDB (@duckdb/node-api) running SQL on report --format jsonl
# (duckdb_run).  All need node and npm (scripts/install-deps.sh installs
# them and Chromium);
# the pinned npm packages of tests/consumers/ are installed on first use into
# a cache named after their lock file ($CONSUMERS_CACHE, else
# ~/.cache/trace-cmd-tests), never into the source tree.

CONSUMERS_SRC=$TEST_DIR/consumers
CONSUMERS_CACHE=${CONSUMERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/trace-cmd-tests}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM

# consumers_dir: where the packages of this lock file are (or go).
consumers_dir() {
	echo "$CONSUMERS_CACHE/consumers-$(cat "$CONSUMERS_SRC/package.json" \
		"$CONSUMERS_SRC/package-lock.json" | sha256sum | cut -c1-16)"
}

# npm_why LOG: npm's reason in one line (its code and message), not the
# pointer to its debug log that ends LOG (npm 9 says "npm ERR!", 10 "npm error").
npm_why() {
	sed -n 's/^npm \(ERR!\|error\) *//p' "$1" | grep -v -e '^$' -e '^errno ' -e 'complete log' -e '_logs/' |
		head -n 3 | paste -sd ';' -
}

# consumers_install: installs them once (npm ci, exactly the lock file's
# versions) beside their final place, then renames, so a failed or
# concurrent install never leaves half a tree there.
consumers_install() {
	dir=$(consumers_dir)
	[ -f "$dir/.installed" ] && return 0
	command -v node >/dev/null && command -v npm >/dev/null || {
		say "no node or npm: scripts/install-deps.sh installs them"
		return 1
	}
	mkdir -p "$CONSUMERS_CACHE" || return 1
	tmp=$(mktemp -d "$dir.new.XXXXXX") || return 1
	cp "$CONSUMERS_SRC/package.json" "$CONSUMERS_SRC/package-lock.json" "$tmp/" &&
	(cd "$tmp" && npm ci --no-audit --no-fund --ignore-scripts) >"$TRASH/npm.log" 2>&1 &&
	: >"$tmp/.installed" || {
		say "npm ci failed: $(npm_why "$TRASH/npm.log")"
		rm -rf "$tmp"
		return 1
	}
	mv -T "$tmp" "$dir" 2>/dev/null || rm -rf "$tmp"	# another run put it there first
	[ -f "$dir/.installed" ]
}

if consumers_install; then
	test_set_prereq TRACE_ENGINE
	test_set_prereq DUCKDB
	if [ -x "$CHROMIUM" ]; then
		test_set_prereq SPEEDSCOPE
	else
		say "no Chromium at $CHROMIUM: scripts/install-deps.sh installs it"
	fi
fi

# consumer_check speedscope|trace-engine FILE.json: what the viewer shows of
# FILE, one line per track in consumer.out; fails with the reason.
consumer_check() {
	CONSUMERS_DIR=$(consumers_dir) node "$CONSUMERS_SRC/check.mjs" "$1" "$2" >consumer.out 2>&1
	ret=$?
	[ $ret = 0 ] || sed 's/^/# /' consumer.out | head -n 20
	return $ret
}

# duckdb_run SCRIPT.sql: DuckDB's answers to SCRIPT's queries (run from the
# current directory) in duckdb.out, as sqlite3 prints them, '--' after each;
# fails with the reason.
duckdb_run() {
	CONSUMERS_DIR=$(consumers_dir) node "$CONSUMERS_SRC/duckdb.mjs" "$1" >duckdb.out 2>&1
	ret=$?
	[ $ret = 0 ] || sed 's/^/# /' duckdb.out | head -n 20
	return $ret
}
