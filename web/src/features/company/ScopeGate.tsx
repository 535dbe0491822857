import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '@/shared/user';
import { FullPageSpin } from '@/shared/ui/FullPageSpin';
import { Problem } from '@/shared/ui/Problem';
import type { Scope } from './api';
import { useScope } from './scope';

/** Renders `children` once the company is known; says so when the account has none. */
export function ScopeGate({ children }: { children: (scope: Scope) => ReactNode }) {
  const { t } = useTranslation();
  const { scope, ready, none } = useScope();
  const user = useCurrentUser();
  if (user.isError) {
    return (
      <Problem
        title={t('company.loadFailed')}
        extra={<Button onClick={() => void user.refetch()}>{t('common.refresh')}</Button>}
      />
    );
  }
  if (!ready) return <FullPageSpin />;
  if (none) return <Problem title={t('company.noCompany')} testId="no-company" />;
  return children(scope);
}
