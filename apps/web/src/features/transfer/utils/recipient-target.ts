import { email as emailSchema } from '@coffer/contract/auth';
import type { TransferTarget } from '../api/send-transfer';

export type RecipientMode = 'email' | 'uid';

/** A UID as the server issues them: no leading zero, at most 15 digits. */
const UID_RE = /^[1-9]\d{0,14}$/;

/** The request target for the typed recipient, or null while it is malformed (nothing is sent then). */
export function targetOf(mode: RecipientMode, raw: string): TransferTarget | null {
  const text = raw.trim();
  if (mode === 'uid') return UID_RE.test(text) ? { uid: Number(text) } : null;
  const parsed = emailSchema.safeParse(text);
  return parsed.success ? { email: parsed.data } : null;
}
