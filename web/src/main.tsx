import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18n, i18nReady } from '@/shared/i18n';
import { App } from '@/app/App';
import { isSignedIn } from '@/shared/session';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  // the chosen language's texts first (a chunk of their own unless English), then the app
  void i18nReady.then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}

// the service worker (docs/pwa.md), in the built app: its code loads after the first screen's
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    void import('@/shared/pwa/device').then((m) =>
      m.registerServiceWorker({
        signedIn: isSignedIn(),
        t: (key) => i18n.t(key),
      }),
    );
  });
}
