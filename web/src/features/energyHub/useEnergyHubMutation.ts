import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { energyHubKeys } from './api';

/**
 * A change of the energy hub: refusals are toasted by the http client; on success it says
 * `done`. Either way every energy hub view (lists, details, events) is refreshed: a refusal
 * often means the screen was stale (a status changed meanwhile), and a failed sync records
 * its error on the connection.
 */
export function useEnergyHubMutation<TVars, TData>(
  fn: (vars: TVars) => Promise<TData>,
  done: string,
  onDone?: (data: TData) => void,
) {
  const { message } = App.useApp();
  const { t } = useTranslation();
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (data) => {
      message.success(t(done));
      onDone?.(data);
    },
    onSettled: () => client.invalidateQueries({ queryKey: energyHubKeys.all }),
  });
}
