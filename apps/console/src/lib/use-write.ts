import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from './errors';

interface Options<R> {
  /** What the write makes stale: refetched once it succeeded. */
  invalidate: QueryKey;
  /** Called after a success (closes the dialog). */
  done?: () => void;
  /** The success message; "Saved" unless the answer says more (e.g. nothing changed). */
  success?: (data: R) => string;
}

/**
 * An operator write: on success it says so, refreshes `invalidate` and calls `done`; on
 * failure it shows the API's message and leaves the dialog open for another try.
 */
export function useWrite<T, R>(run: (value: T) => Promise<R>, { invalidate, done, success }: Options<R>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (data) => {
      message.success(success ? success(data) : t('common.saved'));
      void queryClient.invalidateQueries({ queryKey: invalidate });
      done?.();
    },
    onError: (error) => message.error(errorText(error, t('errors.unexpected'))),
  });
}
