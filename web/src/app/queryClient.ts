import { QueryClient } from '@tanstack/react-query';
import { setRefetch } from '@/shared/pwa/state';

export const queryClient = new QueryClient({
  defaultOptions: {
    // offlineFirst: a query is sent even when the browser says it is offline, so that the
    // service worker can answer with its copy (docs/pwa.md); no retries offline
    queries: { retry: false, refetchOnWindowFocus: false, networkMode: 'offlineFirst' },
  },
});

// back online after showing offline copies: reload what the screens show (docs/pwa.md)
setRefetch(() => queryClient.invalidateQueries());
