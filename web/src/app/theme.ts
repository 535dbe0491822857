import { theme, type ThemeConfig } from 'antd';
import type { ThemeKind } from '@/shared/theme';

/**
 * Dark by default; the branded theme is light. The primary colour is the company's. `motion`
 * false (the user's "reduce motion" setting) turns antd's transitions off.
 */
export function antdTheme(kind: ThemeKind, primary: string, motion = true): ThemeConfig {
  const dark = kind === 'default';
  return {
    algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
    cssVar: { key: 'portal' },
    token: {
      motion,
      colorPrimary: primary,
      colorInfo: primary,
      colorLink: primary,
      borderRadius: 8,
      fontFamily:
        "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'PingFang SC', 'Microsoft YaHei', sans-serif",
      ...(dark
        ? { colorBgLayout: '#0b0f0d', colorBgContainer: '#141a17', colorBgElevated: '#1b231f' }
        : { colorBgLayout: '#f3f6f4' }),
    },
    components: {
      Layout: dark
        ? {
            siderBg: '#101512',
            headerBg: '#101512',
            bodyBg: '#0b0f0d',
            footerBg: '#0b0f0d',
            triggerBg: '#161d19',
          }
        : {
            siderBg: '#ffffff',
            headerBg: '#ffffff',
            bodyBg: '#f3f6f4',
            footerBg: '#f3f6f4',
            triggerBg: '#eef2ef',
            triggerColor: '#333',
          },
      Menu: dark ? { darkItemBg: '#101512', darkSubMenuItemBg: '#0c110e' } : {},
    },
  };
}
