import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { DeferredDropdown } from './DeferredDropdown';
import { dropdownCode } from './dropdownCode';

describe('DeferredDropdown', () => {
  it('shows the trigger alone, then opens its menu on the first click and runs the choice', async () => {
    const chosen = vi.fn();
    render(
      <DeferredDropdown
        trigger={['click']}
        menu={{
          items: [
            { key: 'a', label: 'First' },
            { key: 'b', label: 'Second' },
          ],
          onClick: ({ key }) => chosen(key),
        }}
      >
        <Button data-testid="open">Open</Button>
      </DeferredDropdown>,
    );
    expect(screen.queryByRole('menuitem')).toBeNull();
    // one event, not userEvent's sequence: were the code to arrive in the middle of that, its
    // last events would go to the trigger replaced by the swap, which no browser does
    fireEvent.click(screen.getByTestId('open'));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Second' }));
    expect(chosen).toHaveBeenCalledWith('b');
  });

  it('opens its menu on a press that no click follows', async () => {
    // as on a fresh page: the code not in yet (the other tests may have brought it)
    dropdownCode.forget();
    render(
      <DeferredDropdown trigger={['click']} menu={{ items: [{ key: 'a', label: 'First' }] }}>
        <Button data-testid="open">Open</Button>
      </DeferredDropdown>,
    );
    // The code arrives between press and release: the swap mounts the trigger anew, and a
    // browser sends the click to the common parent of the two, not to the new trigger.
    fireEvent.pointerDown(screen.getByTestId('open'));
    expect(await screen.findByRole('menuitem', { name: 'First' })).toBeInTheDocument();
  });

  it('keeps the focus on a trigger reached by keyboard', async () => {
    render(
      <DeferredDropdown trigger={['click']} menu={{ items: [{ key: 'a', label: 'First' }] }}>
        <Button data-testid="open">Open</Button>
      </DeferredDropdown>,
    );
    await userEvent.tab();
    expect(screen.getByTestId('open')).toHaveFocus();
    // the code arrives and the trigger is mounted anew: it has the focus still
    await vi.waitFor(() => expect(screen.getByTestId('open')).toHaveFocus());
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('menuitem', { name: 'First' })).toBeInTheDocument();
  });
});
