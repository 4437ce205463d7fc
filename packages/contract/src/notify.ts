import { z } from 'zod';

/**
 * Notices and mails for money and security events, and Web Push (docs/decisions/054).
 * A notice is always made; mail follows the user's toggle per category.
 */
export const notifySettings = z.object({
  /** Deposits credited, withdrawals finished or refunded, transfers received. */
  moneyMail: z.boolean(),
  /** A sign-in from a new device, two-step verification turned on. */
  securityMail: z.boolean(),
});
export type NotifySettings = z.infer<typeof notifySettings>;

/** Changes one or both toggles; a key left out keeps its value. */
export const notifySettingsUpdate = notifySettings.partial().refine((v) => Object.keys(v).length > 0, 'name at least one setting');

/** The server's VAPID public key (base64url), what PushManager.subscribe() takes as applicationServerKey. */
export const pushKeyData = z.object({ publicKey: z.string() });

const base64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+=*$/, 'must be base64url');

/** PushSubscription.toJSON() as a browser gives it (expirationTime ignored). */
export const pushSubscriptionInput = z.object({
  endpoint: z.string().url().max(1000),
  keys: z.object({ p256dh: base64url(200), auth: base64url(100) }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionInput>;

export const pushUnsubscribeInput = z.object({ endpoint: z.string().url().max(1000) });

export const pushSubscribedData = z.object({ subscribed: z.boolean() });

/** Kinds of the notices these events make (notices.kind). */
export const EVENT_NOTICE_KINDS = [
  'deposit_credited',
  'withdraw_completed',
  'withdraw_returned',
  'transfer_received',
  'new_sign_in',
  'two_factor_enabled',
] as const;
export type EventNoticeKind = (typeof EVENT_NOTICE_KINDS)[number];

/** What the service worker receives in a push (it shows title and body, opens url). */
export const pushPayload = z.object({ title: z.string(), body: z.string(), url: z.string(), tag: z.string() });
export type PushPayload = z.infer<typeof pushPayload>;
