import '@testing-library/jest-dom/vitest';
import { createRequire } from 'node:module';
import { vi } from 'vitest';

// jsdom lacks matchMedia (antd's responsive helpers use it)
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}

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

// Screens rendered with antd take seconds on a loaded two-core machine (the first render of a
// file compiles antd's styles): 5 s, vitest's default, fails them for no fault of the code.
vi.setConfig({ testTimeout: 30_000 });
