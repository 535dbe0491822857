import { afterEach, describe, expect, it, vi } from 'vitest';
import { blockedInput, installKeyFilter } from './keyFilter';

function input(type = 'text', attrs: Record<string, string> = {}): HTMLInputElement {
  const el = document.createElement('input');
  el.type = type;
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  document.body.appendChild(el);
  return el;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the global key filter', () => {
  it('blocks special characters in normal text fields only', () => {
    const text = input();
    for (const c of ['#', '$', '%', '<', '"', '\\', '；', '￥'])
      expect(blockedInput(text, c)).toBe('special');
    for (const c of ['a', '1', '@', '.', '-', '_', ' ', '+', '中'])
      expect(blockedInput(text, c)).toBeNull();
    expect(blockedInput(input('number'), '#')).toBeNull();
    expect(blockedInput(input('text', { 'data-keyfilter': 'off' }), '#')).toBeNull();
  });

  it('blocks spaces but not special characters in password fields', () => {
    const pwd = input('password');
    expect(blockedInput(pwd, ' ')).toBe('space');
    expect(blockedInput(pwd, '#')).toBeNull();
    const wrapper = document.createElement('span');
    wrapper.className = 'ant-input-password';
    const shown = document.createElement('input');
    shown.type = 'text';
    wrapper.appendChild(shown);
    document.body.appendChild(wrapper);
    expect(blockedInput(shown, ' ')).toBe('space');
  });

  it('prevents the key and warns once installed', () => {
    const warn = vi.fn();
    const uninstall = installKeyFilter(document, warn);
    const text = input();
    const event = new KeyboardEvent('keydown', { key: '$', bubbles: true, cancelable: true });
    text.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(warn).toHaveBeenCalledWith('special');
    const pwd = input('password');
    const space = new KeyboardEvent('keydown', { key: ' ', bubbles: true, cancelable: true });
    pwd.dispatchEvent(space);
    expect(space.defaultPrevented).toBe(true);
    expect(warn).toHaveBeenLastCalledWith('space');
    const fine = new KeyboardEvent('keydown', { key: 'a', bubbles: true, cancelable: true });
    text.dispatchEvent(fine);
    expect(fine.defaultPrevented).toBe(false);
    uninstall();
    const after = new KeyboardEvent('keydown', { key: '$', bubbles: true, cancelable: true });
    text.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });
});
