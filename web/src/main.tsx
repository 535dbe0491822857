import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { i18nReady } from '@/shared/i18n';
import { App } from '@/app/App';
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
