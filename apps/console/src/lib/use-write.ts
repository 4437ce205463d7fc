import { errorText } from '@coffer/api-client/api-error';
import { type QueryClient, type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';

/** What the page wants shown and done around a write; the cache effects are the api hook's. */
export interface WriteUi<T, R> {
  /** Called after a success (closes the dialog, resets the form). */
  done?: (data: R, value: T) => void;
  /** The success message; "Saved" unless the answer says more (e.g. nothing changed); null: none. */
  success?: ((data: R, value: T) => string) | null;
  /** Called after a refusal, besides its message (e.g. a fresh Idempotency-Key). */
  failed?: (error: unknown, value: T) => void;
}

/** What a write changes in the cache: declared once, in the endpoint's file under features/<x>/api/. */
export interface WriteEffects<T, R> {
  /** What the write makes stale: refetched once it succeeded. */
  invalidate?: readonly QueryKey[];
  /** Puts the answer where a query reads it (the record the write answers with). */
  update?: (queryClient: QueryClient, data: R, value: T) => void;
}

/**
 * An operator write: on success it applies its cache effects, says so and calls `done`; on
 * failure it shows the API's message and leaves the dialog open for another try.
 */
export function useWrite<T, R>(run: (value: T) => Promise<R>, effects: WriteEffects<T, R>, ui: WriteUi<T, R> = {}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (data, value) => {
      effects.update?.(queryClient, data, value);
      for (const queryKey of effects.invalidate ?? []) void queryClient.invalidateQueries({ queryKey });
      if (ui.success !== null) message.success(ui.success ? ui.success(data, value) : t('common.saved'));
      ui.done?.(data, value);
    },
    onError: (error, value) => {
      ui.failed?.(error, value);
      message.error(errorText(error, t('errors.unexpected')));
    },
  });
}
