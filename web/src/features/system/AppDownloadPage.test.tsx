import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import '@/shared/i18n';
import { FALLBACK_CONFIG } from '@/shared/config';
import AppDownloadPage from './AppDownloadPage';

vi.mock('@/shared/config', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/shared/config')>();
  return {
    ...actual,
    useServerConfig: () => ({
      config: {
        ...actual.FALLBACK_CONFIG,
        appDownload: { android: 'https://example.com/app.apk', ios: null },
      },
      isPending: false,
    }),
  };
});

describe('the app download page', () => {
  it('shows a QR code and link for a platform with a download and an empty state otherwise', async () => {
    expect(FALLBACK_CONFIG.appDownload.android).toBeNull();
    Object.defineProperty(navigator, 'userAgent', {
      value: 'Linux; Android 14',
      configurable: true,
    });
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <AppDownloadPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const qr = await screen.findByAltText('QR code of the Android download');
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByRole('link', { name: 'Open the Android download page' })).toHaveAttribute(
      'href',
      'https://example.com/app.apk',
    );
    expect(document.body.textContent).toMatch(/scan the code/);
    fireEvent.click(screen.getByText('iOS'));
    expect(
      await screen.findByText('No download is available for this platform yet'),
    ).toBeInTheDocument();
    // no code, so no word of scanning one
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
    expect(document.body.textContent).not.toMatch(/scan/i);
  });
});
