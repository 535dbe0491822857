// npm run e2e: the Playwright tests (playwright-core + Debian chromium) under node's test runner.
// Builds what is missing first: web/dist (npm run build) and the server (cargo build -p portal).
import { spawnSync } from 'node:child_process';
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

// Two files at a time: each starts its own server on free ports, and the longest journeys
// (mostly waiting on the simulator's clock) overlap with the short ones when they start first.
const concurrency = process.env.E2E_CONCURRENCY || '2';
const result = spawnSync(
  process.execPath,
  ['--test', `--test-concurrency=${concurrency}`, ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
