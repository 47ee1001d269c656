// DuckDB's answers to the queries of a SQL script, printed as sqlite3 prints
// them, so that they compare with the SQLite export's line for line.
//
//   node duckdb.mjs SCRIPT.sql
//
// SCRIPT holds statements each ending a line with ';' (trace-cmd-convert(1)'s
// DuckDB example); it runs in an in-memory database from the current
// directory.  Each SELECT's rows are printed with their columns joined by '|'
// (NULL empty), then a line '--'; an error is one line and exit 1.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// The packages are installed on demand into a cache (tests/lib-consumers.sh), not beside this file.
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.env.CONSUMERS_DIR || here, 'x.js'));
const { DuckDBInstance } = require('@duckdb/node-api');

function statements(file) {
	return fs.readFileSync(file, 'utf8').split(/;[ \t]*\n/).map(s => s.trim()).filter(Boolean);
}

async function main(file) {
	const db = await DuckDBInstance.create(':memory:');
	const con = await db.connect();

	for (const sql of statements(file)) {
		const reader = await con.runAndReadAll(sql);

		if (!/^select\b/i.test(sql))
			continue;
		for (const row of reader.getRows())
			console.log(row.map(v => (v === null ? '' : String(v))).join('|'));
		console.log('--');
	}
}

if (process.argv.length !== 3) {
	console.log('usage: node duckdb.mjs SCRIPT.sql');
	process.exit(2);
}
main(process.argv[2]).catch(e => {
	console.log(`FAIL ${String(e.message || e).split('\n')[0]}`);
	process.exit(1);
});
