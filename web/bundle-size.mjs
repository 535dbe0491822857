// npm run size: builds the web app (into a temp dir, with Vite's manifest) and measures the
// JavaScript a browser loads before the first screen: what index.html loads (the entry chunk
// and its static imports, all modulepreloaded: the shell, i18n, the http client, the router,
// which must run before any screen can start) against the budget of issue 13 (350 kB gzip; it
// was 433 kB), and, for information, that plus the first screen's own chunks (the fleet
// dashboard, the plant list with its table, or the welcome page). Sizes are those of the `.gz` (gzip -9) and `.br` files
// the build writes and the portal serves. Exit 1 over budget.
//   node bundle-size.mjs [--dist <dir with .vite/manifest.json>]   (skips the build)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 350; // gzip, kB = 1000 bytes (as Vite prints them)
const web = path.dirname(fileURLToPath(import.meta.url));

const given = process.argv.indexOf('--dist');
let dist = given > 0 ? path.resolve(process.argv[given + 1]) : null;
let temp = null;
if (!dist) {
  temp = mkdtempSync(path.join(os.tmpdir(), 'portal-size-'));
  dist = temp;
  const r = spawnSync(
    'npx',
    ['vite', 'build', '--manifest', '--outDir', dist, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: web, stdio: 'inherit' },
  );
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const size = (file, ext) => {
  const p = path.join(dist, file + ext);
  // files under 1 kB have no compressed copy: they are sent as they are
  return existsSync(p) ? statSync(p).size : statSync(path.join(dist, file)).size;
};

/** Chunks loaded for these manifest keys: each with its static imports, transitively. */
function closure(keys) {
  const seen = new Set();
  const queue = [...keys];
  while (queue.length) {
    const k = queue.pop();
    if (seen.has(k)) continue;
    seen.add(k);
    queue.push(...(manifest[k].imports ?? []));
  }
  return [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
}

function measure(label, pages) {
  const keys = pages.map((p) => {
    const key = Object.keys(manifest).find((k) => k.endsWith(p));
    if (!key) throw new Error(`${p} is not a chunk of the build`);
    return key;
  });
  const files = closure([entry, ...keys]);
  const sum = (ext) => files.reduce((t, f) => t + size(f, ext), 0);
  const r = { label, files: files.length, raw: sum(''), gzip: sum('.gz'), br: sum('.br') };
  const kb = (b) => `${(b / 1000).toFixed(1)} kB`.padStart(10);
  console.log(
    `${label.padEnd(46)} ${String(r.files).padStart(3)} files ${kb(r.raw)} raw ${kb(r.gzip)} gzip ${kb(r.br)} brotli`,
  );
  return r;
}

console.log('JavaScript loaded before the first screen:');
const shell = measure('index.html (entry + modulepreload)', []);
const fleet = measure('signed in, several plants: fleet dashboard (/)', [
  'src/features/fleet/FleetDashboardPage.tsx',
]);
const plants = measure('signed in, no plant yet: plant list (/plants)', [
  'src/features/plants/PlantListPage.tsx',
]);
const home = measure('signed in without plant screens: welcome (/)', [
  'src/features/home/HomePage.tsx',
]);
measure('signed out, login page', ['src/features/auth/LoginPage.tsx']);
for (const lang of ['zh', 'es']) {
  const key = Object.keys(manifest).find((k) => k.endsWith(`locales/${lang}.json`));
  if (key) {
    const f = manifest[key].file;
    console.log(
      `  + the ${lang} texts for a ${lang} user: ${(size(f, '.gz') / 1000).toFixed(1)} kB gzip`,
    );
  }
}
console.log(
  `budget: ${BUDGET_KB} kB gzip for index.html's JavaScript: ${(shell.gzip / 1000).toFixed(1)} kB` +
    ` (first screens: fleet dashboard ${(fleet.gzip / 1000).toFixed(1)} kB, plant list ${(plants.gzip / 1000).toFixed(1)} kB, welcome ${(home.gzip / 1000).toFixed(1)} kB)`,
);
if (temp) rmSync(temp, { recursive: true, force: true });
if (shell.gzip > BUDGET_KB * 1000) {
  console.error(`over budget by ${((shell.gzip - BUDGET_KB * 1000) / 1000).toFixed(1)} kB`);
  process.exit(1);
}
