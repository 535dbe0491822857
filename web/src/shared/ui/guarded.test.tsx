import { act, createEvent, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GuardedModal, GuardedPopconfirm, SubmitButton } from './guarded';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('SubmitButton', () => {
  it('submits a form once for a double click and again after 3000 ms', () => {
    const submit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    render(
      <form onSubmit={submit}>
        <SubmitButton htmlType="submit">Send</SubmitButton>
      </form>,
    );
    fireEvent.click(button('Send'));
    fireEvent.click(button('Send'));
    expect(submit).toHaveBeenCalledTimes(1);
    expect(button('Send').disabled).toBe(true);
    act(() => vi.advanceTimersByTime(2999));
    fireEvent.click(button('Send'));
    expect(submit).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(1));
    expect(button('Send').disabled).toBe(false);
    fireEvent.click(button('Send'));
    expect(submit).toHaveBeenCalledTimes(2);
  });

  it('submits during the click itself, not through the browser, which would find it disabled', () => {
    const submit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    render(
      <form onSubmit={submit}>
        <SubmitButton htmlType="submit">Send</SubmitButton>
      </form>,
    );
    const click = createEvent.click(button('Send'));
    fireEvent(button('Send'), click);
    expect(click.defaultPrevented).toBe(true);
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('runs a writing onClick once per guard window and keeps disabled and loading', () => {
    const write = vi.fn();
    const { rerender } = render(<SubmitButton onClick={write}>Write</SubmitButton>);
    fireEvent.click(button('Write'));
    fireEvent.click(button('Write'));
    expect(write).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(3000));
    rerender(
      <SubmitButton onClick={write} disabled>
        Write
      </SubmitButton>,
    );
    expect(button('Write').disabled).toBe(true);
    fireEvent.click(button('Write'));
    expect(write).toHaveBeenCalledTimes(1);
    rerender(
      <SubmitButton onClick={write} loading>
        Write
      </SubmitButton>,
    );
    expect(button(/Write/).className).toContain('ant-btn-loading');
  });
});

describe('GuardedModal', () => {
  it('calls onOk once for a double click on OK, again after 3000 ms', () => {
    const ok = vi.fn();
    render(
      <GuardedModal open title="Edit" okText="Apply" onOk={ok}>
        body
      </GuardedModal>,
    );
    fireEvent.click(button('Apply'));
    fireEvent.click(button('Apply'));
    expect(ok).toHaveBeenCalledTimes(1);
    expect(button('Apply').disabled).toBe(true);
    act(() => vi.advanceTimersByTime(3000));
    fireEvent.click(button('Apply'));
    expect(ok).toHaveBeenCalledTimes(2);
  });

  it('keeps a disabled OK button disabled', () => {
    const ok = vi.fn();
    render(
      <GuardedModal open okText="Apply" onOk={ok} okButtonProps={{ disabled: true }}>
        body
      </GuardedModal>,
    );
    fireEvent.click(button('Apply'));
    expect(ok).not.toHaveBeenCalled();
  });
});

describe('GuardedPopconfirm', () => {
  it('confirms once for a double click', () => {
    const confirm = vi.fn();
    render(
      <GuardedPopconfirm open title="Sure?" okText="Yes" onConfirm={confirm}>
        <span>target</span>
      </GuardedPopconfirm>,
    );
    fireEvent.click(button('Yes'));
    fireEvent.click(button('Yes'));
    expect(confirm).toHaveBeenCalledTimes(1);
  });
});
