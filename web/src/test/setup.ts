import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { StyleContext } from '@ant-design/cssinjs';
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

// antd's style sheets are made but not put into the document, as when antd renders on a server
// (its style context's `mock: 'server'`, set on the context's default value: no test renders a
// StyleProvider). jsdom lays nothing out, and every getComputedStyle (testing-library's role
// queries and accessible names, user-event's pointer check, antd's own measurements) cascaded
// every antd rule in the document through its selector engine: two thirds of the stage's time.
// The cost: what only antd's style sheets hide (a closed popup's `-hidden` class) is not hidden
// to the queries. How a screen looks is for the browser journeys (web/e2e).
(StyleContext as unknown as { _currentValue: { mock?: 'server' } })._currentValue.mock = 'server';

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

// testing-library's waits (`findBy…`, `waitFor`): their default of 1 s failed
// on CI when a screen's lazily loaded part (a dropdown's menu, say) took longer to arrive beside
// the Rust tests. A wait that succeeds returns as soon as it does, so a longer bound only costs
// time when a test fails.
configure({ asyncUtilTimeout: 10_000 });
