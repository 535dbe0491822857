import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useClickGuard } from './useClickGuard';
import { useOverlay } from './useOverlay';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useClickGuard', () => {
  it('ignores clicks for 3000 ms after one went through', () => {
    const action = vi.fn();
    const { result } = renderHook(() => useClickGuard(action));
    act(() => result.current[0]('a'));
    act(() => result.current[0]('b'));
    expect(action).toHaveBeenCalledTimes(1);
    expect(action).toHaveBeenCalledWith('a');
    expect(result.current[1]).toBe(true);
    act(() => vi.advanceTimersByTime(2999));
    act(() => result.current[0]('c'));
    expect(action).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current[1]).toBe(false);
    act(() => result.current[0]('d'));
    expect(action).toHaveBeenLastCalledWith('d');
  });
});

describe('useOverlay', () => {
  it('shows at once and closes 200 ms after loading ends', () => {
    const { result, rerender } = renderHook(({ loading }) => useOverlay(loading), {
      initialProps: { loading: false },
    });
    act(() => vi.advanceTimersByTime(300));
    expect(result.current).toBe(false);
    rerender({ loading: true });
    expect(result.current).toBe(true);
    rerender({ loading: false });
    act(() => vi.advanceTimersByTime(199));
    expect(result.current).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(false);
  });
});
