/** A media query list that answers `matches` and listens to nothing (jsdom has no media). */
function mediaList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  } as MediaQueryList;
}

/**
 * Makes media queries (antd's breakpoints, useNarrow) see a window `px` wide, until the test
 * ends (src/test/setup.ts puts the plain one back).
 */
export function screenWidth(px: number): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => {
      const min = /min-width:\s*([\d.]+)px/.exec(query);
      const max = /max-width:\s*([\d.]+)px/.exec(query);
      return mediaList(query, (!min || px >= Number(min[1])) && (!max || px <= Number(max[1])));
    },
  });
}

/** jsdom's window as the tests see it by default: no media query matches. */
export function plainMedia(): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => mediaList(query, false),
  });
}

/** The page as the installed app opens it (`display-mode: standalone`), until the test ends. */
export function runsStandalone(): void {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => mediaList(query, query === '(display-mode: standalone)'),
  });
}
