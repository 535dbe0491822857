import { Flex, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Right } from './api';

/** Keys that let a company act on devices or read secrets: shown in a warning colour. */
const STRONG = /(\.power|\.upgrade|\.debug|\.delete|\.key|\.setting)$/;

/** What a company's staff may do on the plants it serves, as the server's policy derives it. */
export function Rights({ rights, label }: { rights: Right[]; label?: string }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={4}>
      <Typography.Text type="secondary">{label ?? t('consent.rights')}</Typography.Text>
      <Flex wrap gap={4} data-testid="rights">
        {rights.map((r) => (
          <Tag
            key={r.key}
            color={STRONG.test(r.key) ? 'orange' : undefined}
            style={{ marginInlineEnd: 0 }}
          >
            {r.name}
          </Tag>
        ))}
      </Flex>
    </Flex>
  );
}
