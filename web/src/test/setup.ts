import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { createRequire } from 'node:module';
import { afterEach } from 'vitest';
import { resetFakeHttp } from './http';
import { plainMedia } from './media';
import { resetScreen } from './render';

// Test files share a worker's document and modules (vitest's `isolate: false`: importing antd
// and the app once per worker, not once per file, halves the stage's time). This file runs
// before each of them, so each starts as in a document of its own: nothing stored, nothing
// left in the page by the file before.
localStorage.clear();
sessionStorage.clear();
document.body.innerHTML = '';

// After each test: its screen unmounted (testing-library registers this itself only in the
// first file of a worker that imports it), the real HTTP adapter back, signed out, in English,
// at no particular width.
afterEach(async () => {
  cleanup();
  plainMedia();
  resetFakeHttp();
  await resetScreen();
});

// jsdom lacks matchMedia (antd's responsive helpers use it)
plainMedia();

// jsdom lacks ResizeObserver (antd's table, select, popover and tabs measure themselves with one)
if (!('ResizeObserver' in globalThis)) {
  Object.defineProperty(globalThis, 'ResizeObserver', {
    configurable: true,
    value: class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    },
  });
}

// jsdom lays nothing out, so a scroll bar measures 0 wide; but antd's table (and its modal's
// scroll lock) measure one on every render by cascading every antd style sheet in the document
// through getComputedStyle, a third of the time of a screen with a table. The same answer, at
// once. (The CommonJS module antd loads: its index reads the export at each call.)
const scrollBar: {
  getTargetScrollBarSize: (target: HTMLElement) => { width: number; height: number };
} = createRequire(import.meta.url)('@rc-component/util/lib/getScrollBarSize');
scrollBar.getTargetScrollBarSize = () => ({ width: 0, height: 0 });

// The same holds for testing-library's waits (`findBy…`, `waitFor`): their default of 1 s failed
// on CI when a screen's lazily loaded part (a dropdown's menu, say) took longer to arrive beside
// the Rust tests. A wait that succeeds returns as soon as it does, so a longer bound only costs
// time when a test fails.
configure({ asyncUtilTimeout: 10_000 });
