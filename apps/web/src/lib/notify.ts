import { NOTICE_DURATION_MS } from './notice-config';

/**
 * antd-mobile's Toast pulls in its animation library (@react-spring, ~20 kB gzip). No page
 * needs it before the first request settles, so it loads on first use, keeping it out of
 * the initial bundle.
 */
let toast: Promise<typeof import('./toast').Toast> | null = null;

function loadToast() {
  toast ??= import('./toast').then((module) => module.Toast);
  return toast;
}

/** Danger toast for business failures (code != 0), carrying the server's message. */
export function toastDanger(message: string) {
  void loadToast().then((Toast) => Toast.show({ icon: 'fail', content: message, duration: NOTICE_DURATION_MS }));
}

export function toastSuccess(message: string) {
  void loadToast().then((Toast) => Toast.show({ icon: 'success', content: message, duration: NOTICE_DURATION_MS }));
}

/**
 * Red notice bar across the top (spec §8, HTTP 403/401). antd-mobile has no Notify,
 * and a plain element keeps this out of React so it works from the HTTP layer.
 */
export function notifyDanger(message: string) {
  if (typeof document === 'undefined') return;
  const bar = document.createElement('div');
  bar.className = 'app-notify app-notify--danger';
  bar.setAttribute('role', 'alert');
  bar.textContent = message;
  document.body.appendChild(bar);
  setTimeout(() => bar.remove(), NOTICE_DURATION_MS);
}
