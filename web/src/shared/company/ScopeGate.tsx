import { Button } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FullPageSpin } from '../ui/FullPageSpin';
import { Problem } from '../ui/Problem';
import { useCurrentUser } from '../user';
import { useScope, type Scope } from './scope';

/**
 * Renders `children` once the company is known; says so when the account has none (an
 * internal administrator who has not named one). `failedTitle`: what the screen says when the
 * account itself cannot be loaded.
 */
export function ScopeGate({
  children,
  failedTitle,
}: {
  children: (scope: Scope) => ReactNode;
  failedTitle?: string;
}) {
  const { t } = useTranslation();
  const { scope, ready, none } = useScope();
  const user = useCurrentUser();
  if (user.isError) {
    return (
      <Problem
        title={failedTitle ?? t('company.loadFailed')}
        testId="scope-error"
        extra={<Button onClick={() => void user.refetch()}>{t('common.refresh')}</Button>}
      />
    );
  }
  if (!ready) return <FullPageSpin />;
  if (none) return <Problem title={t('company.noCompany')} testId="no-company" />;
  return children(scope);
}
