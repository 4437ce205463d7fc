import { NOTICE_DURATION_MS } from './notice-config';

/**
 * antd-mobile's Toast pulls in its animation library (@react-spring, ~20 kB gzip), too much
 * for the first screen's budget. So it loads right after the first paint (`preloadFeedback`,
 * called by the layout) and is in memory before any request can fail. A failed load is not
 * kept: the next pop-up tries again, and meanwhile a plain pop-up says the same thing, so
 * feedback never goes silent (decision 021).
 */
type ToastApi = typeof import('./toast').Toast;
let toast: Promise<ToastApi> | null = null;

function loadToast(): Promise<ToastApi> {
  toast ??= import('./toast').then(
    (module) => module.Toast,
    (error: unknown) => {
      toast = null;
      throw error;
    },
  );
  return toast;
}

/** Fetches the pop-up code ahead of need; a failure here is retried on first use. */
export function preloadFeedback() {
  loadToast().catch(() => undefined);
}

/** The toast's look without its code: shown when that code cannot be loaded (offline). */
function plainToast(message: string) {
  if (typeof document === 'undefined') return;
  const box = document.createElement('div');
  box.className = 'app-toast';
  box.setAttribute('role', 'alert');
  box.textContent = message;
  document.body.appendChild(box);
  setTimeout(() => box.remove(), NOTICE_DURATION_MS);
}

/**
 * Pop-ups belong to the screen they were raised on: a navigation clears them
 * (`clearFeedbackOnNavigation`), except those raised by the very task that starts it ("Signed
 * in", then off to the page asked for), which stay `fresh` until the next macrotask. Each
 * clear bumps `generation`, so a toast whose code was still loading does not show afterwards.
 */
let generation = 0;
let fresh = false;

function markFresh() {
  fresh = true;
  setTimeout(() => {
    fresh = false;
  }, 0);
}

function showToast(icon: 'fail' | 'success', message: string) {
  const raisedIn = generation;
  markFresh();
  loadToast().then(
    (Toast) => {
      if (raisedIn === generation) Toast.show({ icon, content: message, duration: NOTICE_DURATION_MS, position: 'top' });
    },
    () => {
      if (raisedIn === generation) plainToast(message);
    },
  );
}

/** Called as a navigation starts (app/router.tsx): what the last screen said goes with it. */
export function clearFeedbackOnNavigation() {
  if (fresh || typeof document === 'undefined') return;
  generation += 1;
  toast?.then((Toast) => Toast.clear()).catch(() => undefined);
  for (const node of document.querySelectorAll('.app-toast, .app-notify')) node.remove();
}

/** Danger toast for business failures (code != 0), carrying the server's message. */
export function toastDanger(message: string) {
  showToast('fail', message);
}

export function toastSuccess(message: string) {
  showToast('success', message);
}

/**
 * Red notice bar across the top (docs/product.md §6, HTTP 403/401). antd-mobile has no Notify,
 * and a plain element keeps this out of React so it works from the HTTP layer.
 */
export function notifyDanger(message: string) {
  if (typeof document === 'undefined') return;
  const bar = document.createElement('div');
  bar.className = 'app-notify app-notify--danger';
  bar.setAttribute('role', 'alert');
  bar.textContent = message;
  markFresh();
  document.body.appendChild(bar);
  setTimeout(() => bar.remove(), NOTICE_DURATION_MS);
}
