// The English texts built into the app (src/shared/i18n/locales/en.json) are only those the
// first screens can show: the login page, the signed-in frame, the fleet dashboard, the plant
// list, the welcome page, and what they open; every other English text is in
// locales/en/more.json, a chunk the other screens wait for (shared/i18n/more.ts,
// app/layout/RouteGate.tsx). This script finds the keys the first screens' code names (string
// literals `section.key...`, and the fixed start of a template literal `section.key.${...}`)
// in every module those screens import statically, and in what they load later themselves
// (a dialog, the map; not the other screens of the route registry), and moves texts between
// the two files to match: a new text goes into en.json, and this moves it out when no first
// screen uses it. Other languages hold every text in one file each (loaded whole).
//   node scripts/split-en-texts.mjs           rewrites en.json and en/more.json
//   node scripts/split-en-texts.mjs --check   fails when they do not match (npm run lint)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(web, 'src');
const EN = path.join(src, 'shared/i18n/locales/en.json');
const MORE = path.join(src, 'shared/i18n/locales/en/more.json');

/** The first screens and the signed-in frame (bundle-size.mjs measures the same). */
const ROOTS = [
  'main.tsx',
  'app/layout/MainLayout.tsx',
  'app/pages/Root.tsx',
  'features/auth/LoginPage.tsx',
  'features/fleet/FleetDashboardPage.tsx',
  'features/plants/PlantListPage.tsx',
  'features/home/HomePage.tsx',
].map((f) => path.join(src, f));

/** Files whose `import()`s are other screens (gated on more.json) or other languages. */
const SCREEN_LOADERS =
  /([\\/]features[\\/][^\\/]+[\\/]index\.tsx?|[\\/]app[\\/](registry|router)\.tsx|[\\/]app[\\/]pages[\\/]lazy\.ts|[\\/]shared[\\/]i18n[\\/]index\.ts)$/;

function resolve(spec, from) {
  let base;
  if (spec.startsWith('@/')) base = path.join(src, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec);
  else return null; // a package
  for (const ext of ['', '.ts', '.tsx', '/index.ts', '/index.tsx']) {
    const f = base + ext;
    if (existsSync(f) && /\.(ts|tsx)$/.test(f)) return f;
  }
  return null;
}

/** Every source file the first screens run, and the keys named in them. */
function scan() {
  const seen = new Set();
  const queue = [...ROOTS];
  const keys = new Set();
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*['"]([^'"]+)['"]/g)) {
      const f = resolve(m[1], file);
      if (f) queue.push(f);
    }
    if (!SCREEN_LOADERS.test(file))
      for (const m of code.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const f = resolve(m[1], file);
        if (f) queue.push(f);
      }
    for (const m of code.matchAll(/['"`]([a-zA-Z][\w-]*(?:\.[\w-]+)*)(\.\$\{)?/g)) {
      if (m[2]) keys.add(`${m[1]}.*`);
      else if (m[1].includes('.')) keys.add(m[1]);
    }
  }
  return keys;
}

const isTree = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(a, b) {
  const out = { ...a };
  for (const [k, v] of Object.entries(b))
    out[k] = isTree(v) && isTree(out[k]) ? merge(out[k], v) : v;
  return out;
}

/** Splits `all` into the texts under the named keys (and prefixes) and the rest. */
function split(all, keys) {
  const built = {};
  const more = {};
  const walk = (tree, at, inBuilt, inMore) => {
    for (const [k, v] of Object.entries(tree)) {
      const key = at ? `${at}.${k}` : k;
      const named = keys.has(key) || keys.has(`${key}.*`) || keys.has(`${at}.*`);
      if (isTree(v) && !named) {
        const b = {};
        const m = {};
        walk(v, key, b, m);
        if (Object.keys(b).length) inBuilt[k] = b;
        if (Object.keys(m).length) inMore[k] = m;
      } else (named ? inBuilt : inMore)[k] = v;
    }
  };
  walk(all, '', built, more);
  return { built, more };
}

// sorted like the source: by the order of en.json's sections, then keys as they come
const read = (f) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : {});
const all = merge(read(EN), read(MORE));
const { built, more } = split(all, scan());
const text = (o) => `${JSON.stringify(o, null, 2)}\n`;
if (process.argv.includes('--check')) {
  if (
    readFileSync(EN, 'utf8') !== text(built) ||
    !existsSync(MORE) ||
    readFileSync(MORE, 'utf8') !== text(more)
  ) {
    console.error(
      'the built-in English texts do not match what the first screens use: run node scripts/split-en-texts.mjs',
    );
    process.exit(1);
  }
} else {
  writeFileSync(EN, text(built));
  writeFileSync(MORE, text(more));
  const size = (o) => JSON.stringify(o).length;
  console.log(
    `en.json: ${size(built)} bytes built in, en/more.json: ${size(more)} bytes loaded later`,
  );
}
