import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_CONFIG } from '@/shared/config';
import { envelope, fakeHttp } from '@/test/http';
import { runsStandalone } from '@/test/media';
import { renderScreen } from '@/test/render';
import AppDownloadPage from './AppDownloadPage';

function userAgent(value: string) {
  Object.defineProperty(navigator, 'userAgent', { value, configurable: true });
}

function config(appDownload = FALLBACK_CONFIG.appDownload) {
  fakeHttp({ 'GET /anonymous/config': () => envelope({ ...FALLBACK_CONFIG, appDownload }) });
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'userAgent');
});

describe('the app download page', () => {
  it('offers the browser install prompt and a QR code of the portal, no store apps unless configured', async () => {
    userAgent('Mozilla/5.0 (Linux; Android 14) Chrome/130 Mobile');
    config();
    await renderScreen(<AppDownloadPage />, { route: '/app/download' });
    const qr = await screen.findByAltText("QR code of the portal's address");
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByText(`${window.location.origin}/`)).toBeInTheDocument();
    // no prompt yet: how to install from the browser's menu
    expect(document.body.textContent).toMatch(/choose “Install app”/);
    expect(screen.queryByTestId('app-stores')).toBeNull();

    // the browser offers the install: the page's button opens its prompt
    const prompt = vi.fn(() => Promise.resolve());
    const offer = Object.assign(new Event('beforeinstallprompt'), {
      prompt,
      userChoice: Promise.resolve({ outcome: 'accepted' }),
    });
    act(() => void window.dispatchEvent(offer));
    fireEvent.click(await screen.findByTestId('app-install'));
    expect(prompt).toHaveBeenCalled();
    expect(await screen.findByTestId('app-installed')).toBeInTheDocument();
  });

  it("shows iOS Safari's steps, and says so when it runs installed", async () => {
    userAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Safari/604.1');
    config();
    await renderScreen(<AppDownloadPage />, { route: '/app/download' });
    const steps = await screen.findByTestId('app-ios-steps');
    expect(steps).toHaveTextContent('Add to Home Screen');

    runsStandalone();
    await renderScreen(<AppDownloadPage />, { route: '/app/download' });
    expect(await screen.findByTestId('app-installed')).toHaveTextContent(
      'The app is installed on this device',
    );
  });

  it('still lists the store apps an operator links to, per platform', async () => {
    userAgent('Linux; Android 14');
    config({ android: 'https://example.com/app.apk', ios: null });
    await renderScreen(<AppDownloadPage />, { route: '/app/download' });
    const stores = await screen.findByTestId('app-stores');
    const qr = await within(stores).findByAltText('QR code of the Android download');
    expect(qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(
      within(stores).getByRole('link', { name: 'Open the Android download page' }),
    ).toHaveAttribute('href', 'https://example.com/app.apk');
    expect(stores.textContent).toMatch(/scan the code/);
    fireEvent.click(within(stores).getByText('iOS'));
    expect(
      await within(stores).findByText('No download is available for this platform yet'),
    ).toBeInTheDocument();
    // no store code, so no word of scanning one
    expect(within(stores).queryByRole('img', { name: /QR code/ })).toBeNull();
    expect(stores.textContent).not.toMatch(/scan/i);
  });
});
