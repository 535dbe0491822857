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
 * Packages without top-level side effects that do not say so in their package.json. antd's
 * tooltip, menu, modal and drawer import a form context from `@rc-component/form`, and without
 * this the whole form library (fields, validation) would come along to every first screen.
 */
const PURE_PACKAGES = /node_modules[\\/]@rc-component[\\/](form|async-validator)[\\/]/;

export default defineConfig({
  plugins: [react(), precompress(), serviceWorker()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      treeshake: { moduleSideEffects: [{ test: PURE_PACKAGES, sideEffects: false }] },
      output: { codeSplitting: { groups: LIBRARY_CHUNKS } },
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
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
  },
});
