import { apiGet, apiPost } from '../../../lib/api-client';

/*
 * Web Push on this device (docs/decisions/054): the browser subscribes with the server's VAPID
 * key and hands the subscription to /api/push/subscribe; the service worker shows the pushes.
 */

export const pushSupported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

export async function pushEnabled(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') return false;
  return (await currentSubscription()) !== null;
}

/** Asks for permission, subscribes and registers; 'blocked' when the user (or browser) says no. */
export async function enablePush(): Promise<'on' | 'blocked'> {
  if ((await Notification.requestPermission()) !== 'granted') return 'blocked';
  const registration = await navigator.serviceWorker.ready;
  const { publicKey } = await apiGet<{ publicKey: string }>('/push/key');
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: publicKey }));
  const json = subscription.toJSON();
  await apiPost('/push/subscribe', { endpoint: json.endpoint, keys: json.keys });
  return 'on';
}

export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await apiPost('/push/unsubscribe', { endpoint: subscription.endpoint });
  await subscription.unsubscribe();
}
