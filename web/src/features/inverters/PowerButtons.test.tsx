import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '@/test/render';
import { PowerButtons } from './PowerButtons';

const show = (keys: string[], on: boolean | null = null) =>
  renderScreen(<PowerButtons sn="2306012345" keys={keys} on={on} />);

describe('PowerButtons', () => {
  it('shows nothing without the plant keys (visitors)', async () => {
    const { container } = await show(['station.share.cancle']);
    expect(container.textContent).toBe('');
  });

  it('links to the settings with inverter.setting, power only with inverter.power', async () => {
    await show(['inverter.setting']);
    expect(screen.getByTestId('settings-link').getAttribute('href')).toBe(
      '/device/setting?sn=2306012345',
    );
    expect(screen.queryByTestId('power-off')).toBeNull();
  });

  it('asks for confirmation before switching off', async () => {
    await show(['inverter.power']);
    fireEvent.click(screen.getByTestId('power-off'));
    expect(await screen.findByText(/Switch inverter 2306012345 off\?/)).toBeTruthy();
  });

  it('offers only the switch that changes the reported state', async () => {
    const { unmount } = await show(['inverter.power'], true);
    expect(screen.getByTestId('power-on').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('power-off').hasAttribute('disabled')).toBe(false);
    unmount();
    await show(['inverter.power'], false);
    expect(screen.getByTestId('power-on').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('power-off').hasAttribute('disabled')).toBe(true);
  });
});
