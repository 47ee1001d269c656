// What two real viewers make of a convert --to chrome-json file.
//
//   node check.mjs speedscope FILE.json     speedscope's own page in headless Chromium
//   node check.mjs trace-engine FILE.json   DevTools' trace engine (the Performance panel's model)
//
// Each prints one summary line per track and exits 1 with the reason when the
// viewer does not show the file as written: CPU slices that nest or stay open
// in speedscope, events the trace engine leaves off its threads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The packages are installed on demand into a cache (tests/lib-consumers.sh), not beside this file.
const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.env.CONSUMERS_DIR || here, 'x.js'));
const CPUS_PID = 1000000000;

function fail(why) {
	console.log(`FAIL ${why}`);
	process.exit(1);
}

// Playwright starts it with a new empty --user-data-dir of its own.
function chromeArgs() {
	return ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
		'--disable-background-networking', '--disable-component-update', '--disable-sync'];
}

// The sched slices the file holds per CPU track, X events or B/E pairs of cat
// "sched", that last a while: a slice of no length has nothing to show.
function cpuSlicesInFile(events) {
	const count = new Map(), begin = new Map();

	for (const e of events) {
		if (e.pid !== CPUS_PID || e.cat !== 'sched')
			continue;
		if (!count.has(e.tid))
			count.set(e.tid, 0);
		if (e.ph === 'B')
			begin.set(e.tid, e.ts);
		else if ((e.ph === 'E' && e.ts > begin.get(e.tid)) || (e.ph === 'X' && e.dur > 0))
			count.set(e.tid, count.get(e.tid) + 1);
	}
	return count;
}

// Loads FILE the way `speedscope FILE` does (its page, #localProfilePath), then
// exports the imported profiles with its Export button and reads them back.
async function speedscope(file) {
	const { chromium } = require('playwright-core');
	const index = path.join(path.dirname(require.resolve('speedscope/package.json')),
				'dist/release/index.html');
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'speedscope-'));
	const data = fs.readFileSync(file);
	const loader = path.join(tmp, 'profile.js');
	const events = JSON.parse(data).traceEvents;
	const inFile = cpuSlicesInFile(events);
	const warnings = [];

	if (!events.length) {
		/* speedscope takes no events for no known format, and says so in an alert */
		console.log('OK no events to show');
		return;
	}

	fs.writeFileSync(loader, `speedscope.loadFileFromBase64(${JSON.stringify(path.basename(file))},` +
			 ` ${JSON.stringify(data.toString('base64'))})`);
	const browser = await chromium.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		args: chromeArgs(),
	});
	try {
		const page = await browser.newPage({ acceptDownloads: true });
		// its importer's complaints; Chromium's own GPU notes are no concern
		page.on('console', m => {
			if (m.type() === 'error' || /Tried to end|still open/.test(m.text()))
				warnings.push(m.text());
		});
		page.on('pageerror', e => warnings.push(String(e)));
		page.on('dialog', d => {
			warnings.push(`alert: ${d.message()}`);
			d.dismiss();
		});
		const imported = page.waitForEvent('console', { timeout: 60000,
			predicate: m => m.text() === 'Importing as Trace Event Format profile' });
		await page.goto(`file://${index}#localProfilePath=${loader}`);
		await imported;
		if (!inFile.size) {
			/* no slice to show: it says so and stays on its landing page */
			await page.waitForTimeout(1000);
			report({ profiles: [] }, inFile, warnings.filter(w => !w.endsWith("but it's empty!")));
			return;
		}
		const button = page.getByText('Export').first();	/* shown once imported */
		await button.waitFor({ timeout: 60000 });
		const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
		const saved = path.join(tmp, 'export.json');
		await download.saveAs(saved);
		report(JSON.parse(fs.readFileSync(saved)), inFile, warnings);
	} finally {
		await browser.close();
		fs.rmSync(tmp, { recursive: true, force: true });
	}
}

// Per profile: the frames opened, the deepest nesting, frames left open.
function walk(profile) {
	let depth = 0, max = 0, opened = 0;

	for (const ev of profile.events) {
		if (ev.type === 'O') {
			opened++;
			max = Math.max(max, ++depth);
		} else {
			depth--;
		}
	}
	return { opened, max, open: depth };
}

function report(exported, inFile, warnings) {
	const bad = [];
	let cpus = 0;

	for (const w of warnings.slice(0, 3))
		bad.push(`speedscope warned: ${w.slice(0, 200)}`);
	if (warnings.length > 3)
		bad.push(`... ${warnings.length} warnings in all`);
	for (const p of exported.profiles) {
		const m = /tid (\d+)\)$/.exec(p.name);
		const tid = m ? Number(m[1]) : NaN;
		const w = walk(p);

		if (!inFile.has(tid))
			continue;
		cpus++;
		console.log(`${p.name}: ${w.opened} slices, depth ${w.max}`);
		if (w.max > 1)
			bad.push(`${p.name}: slices nest ${w.max} deep`);
		if (w.open)
			bad.push(`${p.name}: ${w.open} slices never close`);
		if (w.opened !== inFile.get(tid))
			bad.push(`${p.name}: ${w.opened} slices shown of ${inFile.get(tid)}`);
	}
	if (cpus !== inFile.size)
		bad.push(`${cpus} CPU tracks shown of ${inFile.size}`);
	if (bad.length)
		fail(bad.join('\n'));
	console.log(cpus ? `OK ${cpus} CPU tracks flat and closed` : 'OK no CPU slices to show');
}

// What the engine takes from newer Node (20.18, 20) than Debian 12's 18:
// URL.parse and Array.prototype.toSorted, as the standards define them.
function newerNode() {
	URL.parse ??= (url, base) => {
		try {
			return new URL(url, base);
		} catch {
			return null;
		}
	};
	if (!Array.prototype.toSorted)
		Object.defineProperty(Array.prototype, 'toSorted', {
			value(compare) { return Array.from(this).sort(compare); },
			writable: true, configurable: true,
		});
}

// The Performance panel's model: every thread's events, as its tracks draw them.
async function traceEngine(file) {
	newerNode();
	globalThis.DOMRect ??= class DOMRect {
		constructor(x = 0, y = 0, width = 0, height = 0) {
			Object.assign(this, { x, y, width, height });
		}
		static fromRect(r = {}) {
			return new DOMRect(r.x, r.y, r.width, r.height);
		}
	};
	const Trace = await import(pathToFileURL(require.resolve('@paulirish/trace_engine')));
	const events = JSON.parse(fs.readFileSync(file)).traceEvents;
	const model = Trace.TraceModel.Model.createWithAllHandlers();

	await model.parse(structuredClone(events));
	const parsed = model.parsedTrace().data;
	const shown = new Map();	/* "pid/tid ph" -> events on the thread's track */

	for (const [pid, proc] of parsed.Renderer.processes) {
		for (const [tid, thread] of proc.threads) {
			for (const e of thread.entries) {
				if (!parsed.Renderer.entryToNode.has(e))
					continue;
				const key = `${pid}/${tid} ${e.ph === 'I' || e.ph === 'i' ? 'instant' : 'slice'}`;
				shown.set(key, (shown.get(key) || 0) + 1);
			}
		}
	}
	const want = new Map();
	for (const e of events) {
		const kind = e.ph === 'I' || e.ph === 'i' ? 'instant' :
			     e.ph === 'X' || e.ph === 'B' ? 'slice' : null;
		if (kind) {
			const key = `${e.pid}/${e.tid} ${kind}`;
			want.set(key, (want.get(key) || 0) + 1);
		}
	}
	const bad = [];
	let instants = 0;
	for (const [key, n] of want) {
		const got = shown.get(key) || 0;
		if (key.endsWith('instant'))
			instants += got;
		if (got !== n)
			bad.push(`${key}: ${got} shown of ${n}`);
	}
	if (bad.length)
		fail(`${bad.length} tracks differ: ${bad.slice(0, 5).join('; ')}`);
	console.log(`OK ${want.size} tracks, ${instants} instant events shown`);
}

const [what, file] = process.argv.slice(2);
if (what === 'speedscope' && file)
	await speedscope(file);
else if (what === 'trace-engine' && file)
	await traceEngine(file);
else
	fail('usage: node check.mjs speedscope|trace-engine FILE.json');
