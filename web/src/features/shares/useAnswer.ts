import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { ErrorCode, isApiError } from '@/shared/http';

/**
 * A change on this screen: tells how it went, and refreshes every plant read (this screen's
 * data lives under the same key), since a relation decides which plants the caller's staff or
 * the caller see. A request answered elsewhere (4) says it is no longer open.
 */
export function useAnswer<T>(run: (item: T) => Promise<unknown>, done: string) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => message.success(t(done)),
    onError: (e) =>
      message.error(
        isApiError(e, ErrorCode.InvalidParameter)
          ? t('consent.gone')
          : isApiError(e, ErrorCode.AgentTaken)
            ? t('consent.agentTaken')
            : t('consent.failed'),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['plants'] }),
  });
}
