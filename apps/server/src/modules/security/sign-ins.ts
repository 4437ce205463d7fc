import type { SignInKind } from '@coffer/contract';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { signInAttempts } from '../../db/schema/index.ts';
import { deviceName } from './user-agent.ts';

export interface SignInClient {
  ip?: string | null;
  userAgent?: string | null;
}

/** How many earlier successful sign-ins are compared to tell a new device or network. */
const KNOWN_LOOKBACK = 50;

/**
 * Records a sign-in attempt to an existing account (the login path: a wrong password, a wrong
 * second factor after a right one, a success; sign-up as a success). Answers whether a success
 * came from a (device, IP) pair not seen in the account's last successful sign-ins: the caller
 * then mails a new sign-in notice.
 */
export async function recordSignIn(db: Db, userId: number, kind: SignInKind, client: SignInClient): Promise<{ newDevice: boolean }> {
  const success = kind === 'success';
  let newDevice = false;
  if (success) {
    const device = deviceName(client.userAgent);
    const earlier = await db
      .select({ ip: signInAttempts.ip, userAgent: signInAttempts.userAgent })
      .from(signInAttempts)
      .where(and(eq(signInAttempts.userId, userId), eq(signInAttempts.success, true)))
      .orderBy(desc(signInAttempts.id))
      .limit(KNOWN_LOOKBACK);
    newDevice = !earlier.some((e) => e.ip === (client.ip ?? null) && deviceName(e.userAgent) === device);
  }
  await db.insert(signInAttempts).values({
    userId,
    success,
    kind,
    ip: client.ip ?? null,
    userAgent: client.userAgent?.slice(0, 300) ?? null,
  });
  return { newDevice };
}
