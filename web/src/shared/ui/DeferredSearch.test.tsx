import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { searchCode } from './deferredCode';
import { DeferredSearch } from './DeferredSearch';

function Search({ onSearch }: { onSearch: (v: string) => void }) {
  const [value, setValue] = useState('');
  return (
    <DeferredSearch
      aria-label="Search"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onSearch={(v) => onSearch(v)}
      data-testid="search"
    />
  );
}

describe('DeferredSearch', () => {
  beforeEach(() => searchCode.forget());

  it('takes what is typed before its code came, keeps the focus, and searches on Enter', async () => {
    const onSearch = vi.fn();
    const { container } = render(<Search onSearch={onSearch} />);
    expect(container.querySelector('.search-stub')).not.toBeNull();
    // at once, before the code (already in the module cache) arrives
    const box = screen.getByRole('searchbox', { name: 'Search' });
    act(() => box.focus());
    fireEvent.change(box, { target: { value: 'Roof' } });
    await waitFor(() => expect(container.querySelector('.ant-input')).not.toBeNull());
    const real = screen.getByRole('searchbox', { name: 'Search' });
    expect(real).toHaveValue('Roof');
    await waitFor(() => expect(real).toHaveFocus());
    await userEvent.keyboard('s{Enter}');
    expect(onSearch).toHaveBeenLastCalledWith('Roofs');
  });

  it('searches from the stand-in with Enter and its button', () => {
    const onSearch = vi.fn();
    const { container } = render(<Search onSearch={onSearch} />);
    const box = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(box, { target: { value: 'Sun' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSearch).toHaveBeenLastCalledWith('Sun');
    fireEvent.click(container.querySelector('.search-stub-button')!);
    expect(onSearch).toHaveBeenCalledTimes(2);
  });
});
