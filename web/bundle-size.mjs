// npm run size: builds the web app (into a temp dir, with Vite's manifest) and measures what a
// browser downloads before each first screen can show (issue 32: at most 300 kB gzip of
// JavaScript and CSS in all per first screen): index.html's entry and its static imports (all
// modulepreloaded: the shell, i18n, the http client, the router), plus the chunks the screen
// imports statically, plus the signed-in frame (app/layout/MainLayout.tsx, a chunk of its own
// that the login page does not load) for the screens after sign-in, with the CSS files of all
// those chunks. First screens: the login page; after sign-in, the fleet dashboard (several
// plants), the plant list (no plant yet, or opened from the menu) and the welcome page (no
// plant screens) — app/pages/landing.ts. What loads later (a dialog, the map, the charts) does
// not count. Sizes are those of the `.gz` (gzip -9) and `.br` files the build writes and the
// portal serves. Exit 1 when a first screen is over the budget (run by `make test` through
// e2e/bundle.test.mjs, which also checks the server sends those files).
//   node bundle-size.mjs [--dist <dir with .vite/manifest.json>] [--files]   (--dist skips the
//   build; --files lists each screen's files)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 300; // gzip, JavaScript and CSS, kB = 1000 bytes (as Vite prints them)
/**
 * Where each first screen stands, which it must not pass (kB gzip): all within the budget now
 * (docs/performance.md); a first screen that could not be would get a line of its own here
 * while it is brought back.
 */
const CEILING_KB = {
  'signed out: login page': BUDGET_KB,
  'several plants: fleet dashboard (/)': BUDGET_KB,
  'no plant yet: plant list (/plants)': BUDGET_KB,
  'no plant screens: welcome (/)': BUDGET_KB,
};
const LAYOUT = 'src/app/layout/MainLayout.tsx';
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

/** Files loaded for these manifest keys: each chunk with its static imports, transitively,
 * and their CSS. */
function closure(keys) {
  const seen = new Set();
  const queue = [...keys];
  while (queue.length) {
    const k = queue.pop();
    if (seen.has(k)) continue;
    seen.add(k);
    queue.push(...(manifest[k].imports ?? []));
  }
  const js = [...seen].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
  const css = [...new Set([...seen].flatMap((k) => manifest[k].css ?? []))];
  return [...js, ...css];
}

const chunkOf = (p) => Object.keys(manifest).find((k) => k.endsWith(p));
const kb = (b) => `${(b / 1000).toFixed(1)} kB`;

function measure(label, pages) {
  const keys = pages.map((p) => {
    const key = chunkOf(p);
    if (!key) throw new Error(`${p} is not a chunk of the build`);
    return key;
  });
  const files = closure([entry, ...keys]);
  const sum = (ext, list = files) => list.reduce((t, f) => t + size(f, ext), 0);
  const css = files.filter((f) => f.endsWith('.css'));
  const r = { label, files, raw: sum(''), gzip: sum('.gz'), br: sum('.br'), css: sum('.gz', css) };
  console.log(
    `${label.padEnd(44)} ${String(files.length).padStart(3)} files ${kb(r.raw).padStart(9)} raw` +
      ` ${kb(r.gzip).padStart(9)} gzip (CSS ${kb(r.css)}) ${kb(r.br).padStart(9)} brotli`,
  );
  if (process.argv.includes('--files'))
    for (const f of [...files].sort((a, b) => size(b, '.gz') - size(a, '.gz')))
      console.log(`    ${kb(size(f, '.gz')).padStart(9)}  ${f}`);
  return r;
}

// the signed-in frame, when it is a chunk of its own (before issue 32 it was in the entry)
const signedIn = chunkOf(LAYOUT) ? [LAYOUT] : [];
console.log('JavaScript and CSS loaded before the first screen shows:');
const shell = measure('index.html (entry + modulepreload)', []);
const screens = [
  measure('signed out: login page', ['src/features/auth/LoginPage.tsx']),
  measure('several plants: fleet dashboard (/)', [
    ...signedIn,
    'src/features/fleet/FleetDashboardPage.tsx',
  ]),
  measure('no plant yet: plant list (/plants)', [
    ...signedIn,
    'src/features/plants/PlantListPage.tsx',
  ]),
  measure('no plant screens: welcome (/)', [...signedIn, 'src/features/home/HomePage.tsx']),
];
for (const lang of ['zh', 'es']) {
  const key = chunkOf(`locales/${lang}.json`);
  if (key) {
    const f = manifest[key].file;
    console.log(`  + the ${lang} texts for a ${lang} user: ${kb(size(f, '.gz'))} gzip`);
  }
}
if (temp) rmSync(temp, { recursive: true, force: true });
const over = screens.filter((r) => r.gzip > BUDGET_KB * 1000);
const heavier = screens.filter((r) => r.gzip > (CEILING_KB[r.label] ?? BUDGET_KB) * 1000);
console.log(
  `budget: ${BUDGET_KB} kB gzip per first screen (index.html alone: ${kb(shell.gzip)}): ` +
    (over.length ? `${over.length} over` : 'all within'),
);
for (const r of over)
  console.log(
    `${r.label}: over budget by ${kb(r.gzip - BUDGET_KB * 1000)} (its line: ${CEILING_KB[r.label]} kB)`,
  );
for (const r of heavier)
  console.error(`${r.label}: heavier than its line of ${CEILING_KB[r.label] ?? BUDGET_KB} kB`);
if (heavier.length) process.exit(1);
