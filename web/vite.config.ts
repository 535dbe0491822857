/// <reference types="vitest/config" />
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const backend = process.env.PORTAL_DEV_BACKEND ?? 'http://127.0.0.1:8080';
const proxied = [
  '/api',
  '/anonymous',
  '/oauth',
  '/version',
  '/files',
  '/uploads',
  '/manifest.webmanifest',
];

/**
 * Writes a gzip (`.gz`, level 9) and a brotli (`.br`, quality 11) copy beside every text file
 * of the build, once, at build time: the portal sends the copy the browser accepts as it is
 * (crates/api/src/web.rs), so no request pays for compression. Files under 1 kB stay plain.
 */
function precompress(): Plugin {
  return {
    name: 'portal-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const name of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(name)) continue;
        const file = path.join(dir, name);
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: 11,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
        );
      }
    },
  };
}

/**
 * antd parts that the first screens' components import but never show, loaded when they do
 * (issue 32: what the login page, the plant list, the fleet dashboard and the welcome page
 * load). Each becomes a component that loads the real one on its first render, in a Suspense
 * of its own (nothing shows for that moment):
 * - Card's Tabs, for `tabList`, which no screen uses (8 kB gzip with their styles);
 * - Card's Skeleton, for `loading`, which no first screen uses (3 kB gzip);
 * - Typography's editor (`editable`, a TextArea with the input styles: 9 kB gzip).
 */
const LAZY_PARTS = [
  { importer: /[\\/]card[\\/]Card\.js$/, source: '../tabs' },
  { importer: /[\\/]card[\\/]Card\.js$/, source: '../skeleton' },
  { importer: /[\\/]typography[\\/]Base[\\/]index\.js$/, source: '../Editable' },
];

/**
 * antd's button and tag styles take one colour helper, `isBright`, from the colour picker's
 * presets module, and antd's colour class and tooltip take the colour class of the colour
 * picker's index: the module graph then reaches the whole colour picker and the collapse panel
 * from every screen, and the bundler puts them in the first screens' chunks. Those imports get
 * the same helper and class from modules without the components (`isBright` is antd 6's,
 * verbatim).
 */
const IS_BRIGHT = `export const isBright = (value, bgColorToken) => {
  const { r, g, b, a } = value.toRgb();
  const hsv = new RcColor(value.toRgbString()).onBackground(bgColorToken).toHsv();
  if (a <= 0.5) return hsv.v > 0.5;
  return r * 0.299 + g * 0.587 + b * 0.114 > 192;
};`;

function libraryTrims(): Plugin {
  const antd = /node_modules[\\/]antd[\\/]es[\\/]/;
  const LAZY = '\0portal-lazy:';
  const BRIGHT = '\0portal-antd-is-bright';
  return {
    name: 'portal-library-trims',
    enforce: 'pre',
    async resolveId(source, importer) {
      if (!importer) return null;
      if (!antd.test(importer)) return null;
      // `import { App } from 'antd'`: the app's own with holders loaded on first use
      if (source === './app' && /antd[\\/]es[\\/]index\.js$/.test(importer))
        return fileURLToPath(new URL('./src/app/deferredApp/index.tsx', import.meta.url));
      if (
        source.endsWith('color-picker/components/ColorPresets') &&
        /[\\/]style[\\/]/.test(importer)
      )
        return BRIGHT;
      if (
        source === '@rc-component/color-picker' &&
        /color-picker[\\/](color|util)\.js$/.test(importer)
      )
        return this.resolve('@rc-component/color-picker/es/color.js', importer);
      // antd's form context (in every screen: ConfigProvider uses it) takes only the provider;
      // the rc-form index would bring the whole form library (fields, validation: 13 kB gzip)
      if (source === '@rc-component/form' && /form[\\/]context\.js$/.test(importer))
        return this.resolve('@rc-component/form/es/FormContext.js', importer);
      if (LAZY_PARTS.some((p) => p.source === source && p.importer.test(importer))) {
        const real = await this.resolve(source, importer);
        return real && LAZY + real.id;
      }
      return null;
    },
    load(id) {
      if (id === BRIGHT)
        return `import { Color as RcColor } from '@rc-component/color-picker/es/color.js';\n${IS_BRIGHT}`;
      if (!id.startsWith(LAZY)) return null;
      return `import { createElement, lazy, Suspense } from 'react';
const Part = lazy(() => import(${JSON.stringify(id.slice(LAZY.length))}));
export default function LazyPart(props) {
  return createElement(Suspense, null, createElement(Part, props));
}`;
    },
  };
}

/**
 * Writes the service worker (sw/sw.js, docs/pwa.md) to `sw.js` beside index.html, with the app
 * shell to cache on install: index.html, the scripts and styles it loads (entry and
 * modulepreloads, read from the written index.html, so exactly this build's), the icons and the
 * manifest. The version is a hash of all that: every build with a change is a new worker, which
 * the page offers to load ("A new version is available").
 */
function serviceWorker(): Plugin {
  return {
    name: 'portal-service-worker',
    apply: 'build',
    writeBundle(options) {
      const dir = options.dir ?? 'dist';
      const html = readFileSync(path.join(dir, 'index.html'), 'utf8');
      const loaded = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      const precache = [
        '/index.html',
        ...new Set(loaded),
        '/favicon.svg',
        '/favicon-branded.svg',
        '/icons/icon-192.png',
        '/icons/branded-icon-192.png',
        '/manifest.webmanifest',
      ];
      const source = readFileSync(new URL('./sw/sw.js', import.meta.url), 'utf8');
      const version = createHash('sha256')
        .update(source)
        .update(JSON.stringify(precache))
        .digest('hex')
        .slice(0, 12);
      const build = JSON.stringify({ version, precache });
      const out = source.replace(/\/\*BUILD\*\/.*\/\*BUILD\*\//, build);
      if (out === source) throw new Error('sw/sw.js: the /*BUILD*/ marker is missing');
      writeFileSync(path.join(dir, 'sw.js'), out);
    },
  };
}

/**
 * Libraries only some screens need, in chunks of their own that only those screens load. Only
 * libraries without dependencies on the app's shared ones: a group takes its modules'
 * dependencies along, and react in the leaflet chunk would make every screen load it.
 */
const LIBRARY_CHUNKS = [
  { name: 'echarts', test: /node_modules[\\/](echarts|zrender|tslib)[\\/]/ },
  { name: 'leaflet', test: /node_modules[\\/](leaflet|leaflet\.markercluster)[\\/]/ },
];

/**
 * What index.html loads (the entry and everything it imports statically: React, antd's core,
 * the router, i18n, the http client) in one chunk rather than thirty small ones that each
 * compress on their own: 18 kB gzip less before the login page (issue 32).
 */
const SHELL_CHUNK = { name: 'shell', tags: ['$initial' as const] };

/**
 * Packages without top-level side effects that do not say so in their package.json. antd's
 * tooltip, menu, modal and drawer import a form context from `@rc-component/form`, and without
 * this the whole form library (fields, validation) would come along to every first screen.
 */
const PURE_PACKAGES = /node_modules[\\/]@rc-component[\\/](form|async-validator)[\\/]/;

export default defineConfig({
  plugins: [libraryTrims(), react(), precompress(), serviceWorker()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      treeshake: { moduleSideEffects: [{ test: PURE_PACKAGES, sideEffects: false }] },
      output: { codeSplitting: { groups: [...LIBRARY_CHUNKS, SHELL_CHUNK] } },
    },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: backend, changeOrigin: true }])),
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    // Files share a worker's modules and document: antd and the app are imported once per
    // worker, not once per file (half the stage's CPU time). src/test/setup.ts gives each file
    // a clean page and storage and resets what a test changes.
    isolate: false,
    // Screens rendered with antd take seconds on a loaded two-core machine (the first render of
    // a file compiles antd's styles), and a test waits for several answers, each up to 10 s
    // (asyncUtilTimeout in src/test/setup.ts): beside the Rust tests, one test of a big dialog
    // has taken 41 s. One bound for all, not a figure per test.
    testTimeout: 60_000,
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
