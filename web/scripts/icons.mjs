// node scripts/icons.mjs: draws the installed app's PNG icons (public/icons/) from the same
// artwork as the favicons (public/favicon.svg, public/favicon-branded.svg), with chromium, so
// that a changed logo needs no image editor. The PNGs are committed: the build only copies them.
//   icon-192/512:  the favicon as it is ("any": the launcher may show its transparent corners)
//   maskable-512:  full-bleed background in the theme's colour, the mark inside the 80 % safe
//                  circle (the launcher cuts its own shape out of it)
//   apple-touch:   180 px, opaque (iOS ignores the manifest and does not mask transparency)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../e2e/browser.mjs';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');

// the marks of public/favicon.svg and public/favicon-branded.svg without their backgrounds
const DEFAULT_MARK =
  '<circle cx="24" cy="19" r="7" fill="#00cc00"/><g stroke="#00cc00" stroke-width="2.5" stroke-linecap="round"><path d="M24 6v3M24 29v3M11 19h3M34 19h3M14.8 9.8l2.1 2.1M31.1 26.1l2.1 2.1M14.8 28.2l2.1-2.1M31.1 11.9l2.1-2.1"/></g><rect x="14" y="35" width="20" height="6" rx="2" fill="none" stroke="#00cc00" stroke-width="2.5"/>';
const BRANDED_MARK =
  '<circle cx="31" cy="15" r="4" fill="#fff"/><path d="M10 34l9-16 7 10 4-5 8 11z" fill="#fff"/>';

const svg = (body) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48">${body}</svg>`;
const scaled = (mark, s) =>
  `<g transform="translate(24 24) scale(${s}) translate(-24 -24)">${mark}</g>`;

const THEMES = {
  // the dark theme's layout colour (src/app/theme.ts) behind the green mark
  '': {
    any: svg(`<rect x="2" y="2" width="44" height="44" rx="12" fill="#0b0f0d"/>${DEFAULT_MARK}`),
    full: svg(`<rect width="48" height="48" fill="#0b0f0d"/>${scaled(DEFAULT_MARK, 0.78)}`),
  },
  // the branded theme: white mark on the brand green
  'branded-': {
    any: svg(`<circle cx="24" cy="24" r="22" fill="#00cc00"/>${BRANDED_MARK}`),
    full: svg(`<rect width="48" height="48" fill="#00cc00"/>${scaled(BRANDED_MARK, 0.8)}`),
  },
};

const browser = await launch();
const page = await browser.newPage();
async function draw(file, image, size) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}img{display:block}</style><img width="${size}" height="${size}" src="data:image/svg+xml,${encodeURIComponent(image)}">`,
  );
  await page.locator('img').evaluate((img) => img.decode());
  writeFileSync(path.join(out, file), await page.screenshot({ omitBackground: true }));
}
mkdirSync(out, { recursive: true });
for (const [prefix, t] of Object.entries(THEMES)) {
  await draw(`${prefix}icon-192.png`, t.any, 192);
  await draw(`${prefix}icon-512.png`, t.any, 512);
  await draw(`${prefix}maskable-512.png`, t.full, 512);
  await draw(`${prefix}apple-touch-icon.png`, t.full, 180);
}
await browser.close();
console.log(`icons written to ${out}`);
