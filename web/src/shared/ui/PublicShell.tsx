import { Flex, Layout, theme, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { THEME_META, useThemeKind } from '../theme';
import { LanguageSwitch } from './LanguageSwitch';
import { LogoMark } from './Logo';

/** The frame of the pages open without sign-in: brand, language choice, content, footer. */
export function PublicShell({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const kind = useThemeKind();
  const { token } = theme.useToken();
  return (
    <Layout className={`public-shell public-shell-${kind}`} style={{ minHeight: '100vh' }}>
      <Flex justify="space-between" align="center" style={{ padding: '16px 24px' }}>
        <Link to="/login" style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
          <LogoMark size={30} />
          <Typography.Text strong style={{ fontSize: 16, color: token.colorText }}>
            {t(THEME_META[kind].titleKey)}
          </Typography.Text>
        </Link>
        <LanguageSwitch />
      </Flex>
      <Flex flex={1} justify="center" align="flex-start" style={{ padding: '24px 16px 48px' }}>
        <div style={{ width: '100%', maxWidth: wide ? 880 : 440 }}>{children}</div>
      </Flex>
      <Typography.Text type="secondary" style={{ textAlign: 'center', padding: 16 }}>
        {t('layout.footer', { year: new Date().getFullYear(), name: t(THEME_META[kind].titleKey) })}
      </Typography.Text>
    </Layout>
  );
}
