import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { tagCode } from './deferredCode';
import { DeferredTag } from './DeferredTag';

describe('DeferredTag', () => {
  beforeEach(() => tagCode.forget());

  it('closes from the stand-in, then shows the real tag', async () => {
    const onClose = vi.fn();
    const { container } = render(
      <DeferredTag color="blue" closable onClose={onClose} data-testid="tag">
        Customer: ann
      </DeferredTag>,
    );
    expect(screen.getByTestId('tag')).toHaveTextContent('Customer: ann');
    fireEvent.click(screen.getByRole('button'));
    expect(onClose).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(container.querySelector('.ant-tag')).not.toBeNull());
    expect(container.querySelector('.tag-stub')).toBeNull();
    expect(screen.getByTestId('tag')).toHaveTextContent('Customer: ann');
  });
});
