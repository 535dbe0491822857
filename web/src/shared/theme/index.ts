import { createContext, useContext } from 'react';

export { SERIES_GREY, SERIES_PALETTE } from './series';

export type ThemeKind = 'default' | 'branded';

/** The host part of a configured entry: entries may carry a scheme, a port or a path. */
function hostOf(entry: string): string {
  const trimmed = entry.trim().toLowerCase();
  const withoutScheme = trimmed.replace(/^[a-z]+:\/\//, '');
  return withoutScheme.split('/')[0]?.replace(/:\d+$/, '') ?? '';
}

/** The branded theme is chosen when the page host is one of the configured branded hosts. */
export function themeKindFor(hostname: string, brandedHosts: readonly string[]): ThemeKind {
  const host = hostname.toLowerCase();
  return brandedHosts.some((entry) => entry.trim() && hostOf(entry) === host)
    ? 'branded'
    : 'default';
}

/** Title key and favicon per theme: both follow the theme. */
export const THEME_META: Record<ThemeKind, { titleKey: string; favicon: string }> = {
  default: { titleKey: 'app.title', favicon: '/favicon.svg' },
  branded: { titleKey: 'app.brandedTitle', favicon: '/favicon-branded.svg' },
};

export const ThemeKindContext = createContext<ThemeKind>('default');

export function useThemeKind(): ThemeKind {
  return useContext(ThemeKindContext);
}

/** A #rrggbb colour, else the fallback. */
export function safeColor(value: string | null | undefined, fallback: string): string {
  return value && /^#[0-9a-fA-F]{6}$/.test(value.trim()) ? value.trim() : fallback;
}
