// npm run e2e: the Playwright tests (playwright-core + Debian chromium) under node's test runner.
// Builds what is missing first: web/dist (npm run build) and the server (cargo build -p portal).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(dir, '..');
const repo = path.resolve(web, '..');

function run(cmd, args, cwd) {
  console.log(`# e2e: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync(path.join(web, 'dist', 'index.html'))) run('npm', ['run', 'build'], web);
if (!process.env.PORTAL_BIN && !existsSync(path.join(repo, 'target', 'debug', 'portal'))) {
  run('cargo', ['build', '-p', 'portal'], repo);
}

const only = process.argv.slice(2);
/** The journeys that take minutes, started first. */
const LONG = ['upgrade-batch', 'routes', 'gateway-outage'];
const rank = (f) => {
  const k = LONG.findIndex((l) => f.includes(l));
  return k === -1 ? LONG.length : k;
};
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  .map((f) => path.join(dir, f));

// Three files at a time, each in its own `node --test` (node's runner would sort them by name):
// every file starts its own server on free ports, and the journeys that mostly wait on the
// simulator's clock overlap with the short ones when they start first. Two at a time kept the
// two cores 60 % busy (454 s of CPU in 745 s), waiting on real time. A file's output is printed
// whole when it ends, so files never interleave.
const concurrency = Math.max(1, Number(process.env.E2E_CONCURRENCY) || 3);

function runFile(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('close', (code) => {
      const secs = ((Date.now() - started) / 1000).toFixed(0);
      const name = path.basename(file);
      process.stdout.write(`\n# e2e: ${name} (${secs} s)\n${Buffer.concat(out).toString()}`);
      resolve({ name, secs, ok: code === 0 });
    });
  });
}

const queue = [...files];
const results = [];
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await runFile(file));
  }),
);
// Three servers, their simulators and three browsers share two cores, so a journey that waits
// on a device's answer can miss its deadline when another file is busy. A failed file runs once
// more, alone, and counts as failed only if it fails again; both runs are printed.
const failedOnce = results.filter((r) => !r.ok);
const failed = [];
for (const first of failedOnce) {
  console.log(`\n# e2e: ${first.name} failed beside another file; running it again alone`);
  const again = await runFile(path.join(dir, first.name));
  if (!again.ok) failed.push(again);
}
const passed = results.length - failed.length;
console.log(`\n# e2e: ${passed} of ${results.length} files passed`);
for (const r of failedOnce.filter((r) => !failed.some((f) => f.name === r.name))) {
  console.log(`# e2e: ${r.name} passed only when run alone`);
}
for (const r of failed) console.log(`# e2e: FAILED ${r.name} (${r.secs} s)`);
process.exit(failed.length === 0 && results.length > 0 ? 0 : 1);
