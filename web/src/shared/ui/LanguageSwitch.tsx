import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGES } from '../i18n';
import { DeferredDropdown } from './DeferredDropdown';

/** The language choice (en, zh, es), stored locally. */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  return (
    <DeferredDropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGUAGES.map((l) => ({ key: l, label: t(`language.${l}`) })),
        onClick: ({ key }) => {
          if (key !== lang) void changeLanguage(key as (typeof LANGUAGES)[number]);
        },
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('language.choose')}
        data-testid="language-switch"
      >
        {compact ? null : t(`language.${lang}`)}
      </Button>
    </DeferredDropdown>
  );
}
