import { QueryClient } from '@tanstack/react-query';
import { setRefetch } from '@/shared/pwa/state';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
  },
});

// back online after showing offline copies: reload what the screens show (docs/pwa.md)
setRefetch(() => queryClient.invalidateQueries());
