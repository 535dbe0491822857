import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { segmentedCode } from './deferredCode';
import { DeferredSegmented } from './DeferredSegmented';

describe('DeferredSegmented', () => {
  beforeEach(() => segmentedCode.forget());

  it('takes a choice before its code came, then shows the real one', async () => {
    const onChange = vi.fn();
    const { container } = render(
      <DeferredSegmented
        value="list"
        onChange={onChange}
        options={[
          { value: 'list', label: 'List' },
          { value: 'map', label: 'Map' },
        ]}
      />,
    );
    expect(screen.getByRole('radio', { name: 'List' })).toBeChecked();
    fireEvent.click(screen.getByText('Map'));
    expect(onChange).toHaveBeenCalledWith('map');
    await waitFor(() => expect(container.querySelector('.ant-segmented')).not.toBeNull());
    expect(container.querySelector('.segmented-stub')).toBeNull();
  });
});
