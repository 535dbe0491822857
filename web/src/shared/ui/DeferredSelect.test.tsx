import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DeferredSelect } from './DeferredSelect';
import { selectCode } from './selectCode';

const OPTIONS = [
  { value: -1, label: 'Any type' },
  { value: 1, label: 'Solar' },
];

describe('DeferredSelect', () => {
  // another test file of the worker may have loaded it
  beforeEach(() => selectCode.forget());

  it('shows the chosen option in a plain box, then the real select', async () => {
    const { container } = render(
      <DeferredSelect aria-label="Type" value={-1} options={OPTIONS} style={{ width: 180 }} />,
    );
    expect(container.querySelector('.select-stub')).toHaveTextContent('Any type');
    expect(screen.getByRole('combobox', { name: 'Type' })).toBeInTheDocument();
    await waitFor(() => expect(container.querySelector('.ant-select')).not.toBeNull());
    expect(container.querySelector('.select-stub')).toBeNull();
    expect(container.querySelector('.ant-select')).toHaveTextContent('Any type');
  });

  it('opens when it was pressed before its code came', async () => {
    const { container } = render(<DeferredSelect aria-label="Type" value={-1} options={OPTIONS} />);
    fireEvent.mouseDown(container.querySelector('.select-stub')!);
    expect(await screen.findByRole('option', { name: 'Solar' })).toBeInTheDocument();
  });
});
