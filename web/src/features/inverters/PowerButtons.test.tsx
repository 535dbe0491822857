import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import '@/shared/i18n';
import { PowerButtons } from './PowerButtons';

function show(keys: string[], on: boolean | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <App>
          <PowerButtons sn="2306012345" keys={keys} on={on} />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('PowerButtons', () => {
  it('shows nothing without the plant keys (visitors)', () => {
    const { container } = show(['station.share.cancle']);
    expect(container.textContent).toBe('');
  });

  it('links to the settings with inverter.setting, power only with inverter.power', () => {
    show(['inverter.setting']);
    expect(screen.getByTestId('settings-link').getAttribute('href')).toBe(
      '/device/setting?sn=2306012345',
    );
    expect(screen.queryByTestId('power-off')).toBeNull();
  });

  it('asks for confirmation before switching off', async () => {
    show(['inverter.power']);
    fireEvent.click(screen.getByTestId('power-off'));
    expect(await screen.findByText(/Switch inverter 2306012345 off\?/)).toBeTruthy();
  });

  it('offers only the switch that changes the reported state', () => {
    const { unmount } = show(['inverter.power'], true);
    expect(screen.getByTestId('power-on').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('power-off').hasAttribute('disabled')).toBe(false);
    unmount();
    show(['inverter.power'], false);
    expect(screen.getByTestId('power-on').hasAttribute('disabled')).toBe(false);
    expect(screen.getByTestId('power-off').hasAttribute('disabled')).toBe(true);
  });
});
