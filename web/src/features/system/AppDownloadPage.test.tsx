import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FALLBACK_CONFIG } from '@/shared/config';
import { envelope, fakeHttp } from '@/test/http';
import { renderScreen } from '@/test/render';
import AppDownloadPage from './AppDownloadPage';

describe('the app download page', () => {
  it('shows a QR code and link for a platform with a download and an empty state otherwise', async () => {
    expect(FALLBACK_CONFIG.appDownload.android).toBeNull();
    Object.defineProperty(navigator, 'userAgent', {
      value: 'Linux; Android 14',
      configurable: true,
    });
    fakeHttp({
      'GET /anonymous/config': () =>
        envelope({
          ...FALLBACK_CONFIG,
          appDownload: { android: 'https://example.com/app.apk', ios: null },
        }),
    });
    await renderScreen(<AppDownloadPage />, { route: '/app/download' });
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
