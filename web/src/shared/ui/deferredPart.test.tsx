import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testQueryClient } from '@/test/render';
import { deferredPart, usePart } from './deferredPart';

/** A page asking for its data (answered when the test says so) and showing a deferred part. */
function setUp() {
  let answer: (rows: string) => void = () => undefined;
  const data = new Promise<string>((resolve) => {
    answer = resolve;
  });
  const importer = vi.fn(() => Promise.resolve('the code'));
  const part = deferredPart(importer);
  function Page() {
    const rows = useQuery({ queryKey: ['rows'], queryFn: () => data });
    const code = usePart(part);
    return (
      <p>
        {rows.data ?? 'loading'}, {code ?? 'stand-in'}
      </p>
    );
  }
  render(
    <QueryClientProvider client={testQueryClient()}>
      <Page />
    </QueryClientProvider>,
  );
  return { answer, importer };
}

describe('usePart', () => {
  afterEach(() => vi.useRealTimers());

  it("loads the code once the page's data is in, not beside it", async () => {
    const { answer, importer } = setUp();
    expect(screen.getByText('loading, stand-in')).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(importer).not.toHaveBeenCalled();
    answer('rows');
    expect(await screen.findByText('rows, the code')).toBeInTheDocument();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('loads the code after four seconds when the data is slower than that', async () => {
    vi.useFakeTimers();
    const { importer } = setUp();
    await act(() => vi.advanceTimersByTimeAsync(3900));
    expect(importer).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(importer).toHaveBeenCalledTimes(1);
    expect(screen.getByText('loading, the code')).toBeInTheDocument();
  });

  it('loads the code at once outside a query client', async () => {
    const importer = vi.fn(() => Promise.resolve('the code'));
    const part = deferredPart(importer);
    function Alone() {
      return <p>{usePart(part) ?? 'stand-in'}</p>;
    }
    render(<Alone />);
    expect(await screen.findByText('the code')).toBeInTheDocument();
  });
});
