import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { isApiError } from '@/shared/http';
import { Problem } from '@/shared/ui/Problem';

/**
 * A detail that could not be read: "gone" when the server answered the object's missing code
 * (deleted, or never visible to the caller), else "failed", with a retry.
 */
export function DetailProblem({
  error,
  missingCode,
  gone,
  failed,
  testId,
  onRetry,
}: {
  error: unknown;
  missingCode: number;
  gone: string;
  failed: string;
  testId: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Problem
      title={isApiError(error, missingCode) ? gone : failed}
      testId={testId}
      extra={<Button onClick={onRetry}>{t('common.refresh')}</Button>}
    />
  );
}
