import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Record types and statuses in words: one map per group under `labels` in the locale files,
 * with the phone app's words where it names the same thing (statement types, withdrawal and
 * deposit statuses). Codes are looked up as whole keys, so dotted audit actions
 * ("user.sign_out") are one entry, not a path. An unknown code shows as itself.
 */
export const LABEL_GROUPS = [
  'entryKind',
  'account',
  'withdrawStatus',
  'depositStatus',
  'activityStatus',
  'userStatus',
  'role',
  'adjustStatus',
  'auditAction',
] as const;
export type LabelGroup = (typeof LABEL_GROUPS)[number];

export function labelFor(t: TFunction, group: LabelGroup, code: string): string {
  const words = t(`labels.${group}`, { returnObjects: true }) as unknown;
  if (words && typeof words === 'object' && Object.hasOwn(words, code)) {
    const word = (words as Record<string, unknown>)[code];
    if (typeof word === 'string') return word;
  }
  return code;
}

/** `labelFor` in the current language: `const label = useLabel(); label('entryKind', 'withdraw_settle')`. */
export function useLabel(): (group: LabelGroup, code: string) => string {
  const { t } = useTranslation();
  return useCallback((group: LabelGroup, code: string) => labelFor(t, group, code), [t]);
}
