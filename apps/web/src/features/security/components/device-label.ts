import type { TFunction } from 'i18next';

/** A session's or sign-in's device as the user reads it ("unknown device" when the browser did not say). */
export const deviceLabel = (t: TFunction, s: { device: string | null }) => s.device ?? t('security.unknownDevice');
