import { queryOptions, useQuery } from '@tanstack/react-query';
import { configKeys } from '../api/keys';
import type { Schemas } from '../api/schema';
import { api } from '../api/client';

/** GET /anonymous/config: what the page needs before anyone signs in. */
export type ServerConfig = Schemas['ServerConfig'];

export const DEFAULT_THEME_COLOR = '#00cc00';

export const FALLBACK_CONFIG: ServerConfig = {
  version: '',
  brandedHosts: [],
  appDownload: { android: null, ios: null },
  mapTileUrl: '',
  defaultThemeColor: DEFAULT_THEME_COLOR,
};

export const configQuery = queryOptions({
  queryKey: configKeys.all,
  queryFn: async (): Promise<ServerConfig> => {
    // an older server may leave fields out: each falls back on its own
    const data: Partial<ServerConfig> = await api.get('/anonymous/config', { silent: true });
    return {
      ...FALLBACK_CONFIG,
      ...data,
      appDownload: { ...FALLBACK_CONFIG.appDownload, ...data.appDownload },
    };
  },
  staleTime: Infinity,
  retry: 1,
});

/** The server config, or the fallback while it loads or when the server cannot answer. */
export function useServerConfig(): { config: ServerConfig; isPending: boolean } {
  const query = useQuery(configQuery);
  return { config: query.data ?? FALLBACK_CONFIG, isPending: query.isPending };
}
