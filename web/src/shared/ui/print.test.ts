import { describe, expect, it, vi } from 'vitest';
import { A4_PRINT_STYLE_ID, printA4 } from './print';

describe('printA4', () => {
  it('adds the A4 page rule once, prints with the title and restores it', () => {
    const titles: string[] = [];
    const print = vi.spyOn(window, 'print').mockImplementation(() => titles.push(document.title));
    document.title = 'Portal';
    printA4('Report 2025-01');
    printA4();
    expect(print).toHaveBeenCalledTimes(2);
    expect(titles).toEqual(['Report 2025-01', 'Portal']);
    expect(document.title).toBe('Portal');
    const styles = document.querySelectorAll(`#${A4_PRINT_STYLE_ID}`);
    expect(styles).toHaveLength(1);
    expect(styles[0]?.textContent).toContain('size: A4');
  });
});
