import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, ColorPicker, Flex, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_THEME_COLOR, useServerConfig } from '@/shared/config';
import { SubmitButton } from '@/shared/ui/guarded';
import { userQuery } from '@/shared/user';
import { companyKeys, saveThemeColor, type CompanyInfo } from './api';
import { expandHex, themeColor } from './rules';

/** A few colours to start from (the product's default first). */
const PRESETS = ['#00cc00', '#1677ff', '#13a8a8', '#fa8c16', '#eb2f96', '#722ed1', '#2f54eb'];

/**
 * The company's theme colour: the primary colour of the portal for its staff (buttons, links,
 * the selected menu item). Empty is the server's default.
 */
export function ThemeCard({ info, mayEdit }: { info: CompanyInfo; mayEdit: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { config } = useServerConfig();
  const fallback = expandHex(config.defaultThemeColor || DEFAULT_THEME_COLOR);
  const saved = expandHex(info.themeColor ?? '');
  const [draft, setDraft] = useState(saved);
  const [base, setBase] = useState(saved);
  if (base !== saved) {
    // adjusting state while rendering: the saved colour changed
    setBase(saved);
    setDraft(saved);
  }
  const save = useMutation({
    mutationFn: (color: string) => saveThemeColor(info.id, color),
    onSuccess: async () => {
      message.success(t('company.theme.saved'));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: companyKeys.all }),
        queryClient.invalidateQueries({ queryKey: userQuery.queryKey }),
      ]);
    },
  });
  const valid = themeColor(draft) === null;
  const shown = draft || fallback;

  return (
    <Card title={t('company.theme.title')}>
      <Typography.Paragraph type="secondary">{t('company.theme.hint')}</Typography.Paragraph>
      <Flex gap={16} wrap align="center">
        <ColorPicker
          value={shown}
          disabled={!mayEdit}
          disabledAlpha
          showText
          format="hex"
          presets={[{ label: t('company.theme.presets'), colors: PRESETS }]}
          onChangeComplete={(c) => setDraft(expandHex(c.toHexString()))}
          aria-label={t('company.theme.title')}
          data-testid="theme-picker"
        />
        {!draft && <Tag data-testid="theme-default">{t('company.theme.isDefault')}</Tag>}
        <Flex gap={8} align="center" aria-hidden>
          <span className="theme-swatch" style={{ background: shown }} />
          <Button type="primary" style={{ background: shown, borderColor: shown }} tabIndex={-1}>
            {t('company.theme.sample')}
          </Button>
        </Flex>
      </Flex>
      {mayEdit && (
        <Space wrap style={{ marginTop: 16 }}>
          <SubmitButton
            type="primary"
            disabled={!valid || draft === saved}
            loading={save.isPending && save.variables !== ''}
            onClick={() => save.mutate(draft)}
            data-testid="theme-save"
          >
            {t('common.save')}
          </SubmitButton>
          <SubmitButton
            disabled={saved === '' && draft === ''}
            loading={save.isPending && save.variables === ''}
            onClick={() => {
              setDraft('');
              save.mutate('');
            }}
            data-testid="theme-default-button"
          >
            {t('company.theme.useDefault')}
          </SubmitButton>
        </Space>
      )}
    </Card>
  );
}
