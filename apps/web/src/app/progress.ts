// The bar's styles stay in the first screen's stylesheet (no unstyled bar when it appears);
// its code loads on the first navigation (decision 026: the landing page paints without it).
import 'nprogress/nprogress.css';
import './progress.css';

type NProgressApi = typeof import('nprogress');

let nprogress: NProgressApi | null = null;
let loading: Promise<NProgressApi> | null = null;
/** Whether a navigation is under way, so a bar whose code arrives late starts only if still needed. */
let running = false;

function load(): Promise<NProgressApi> {
  loading ??= import('nprogress').then(
    ({ default: NProgress }) => {
      // Spec §9: the bar starts at 0.08 and shows a spinner. nprogress's own template marks them
      // role="bar" and role="spinner", which are not ARIA roles (axe: aria-roles, critical); the
      // same markup without them, found by class, and hidden from assistive technology (decoration).
      NProgress.configure({
        minimum: 0.08,
        showSpinner: true,
        template:
          '<div class="bar" aria-hidden="true"><div class="peg"></div></div><div class="spinner" aria-hidden="true"><div class="spinner-icon"></div></div>',
        barSelector: '.bar',
        spinnerSelector: '.spinner',
      });
      nprogress = NProgress;
      return NProgress;
    },
    (error: unknown) => {
      // Not kept: the next navigation tries again (offline, the bar is only decoration).
      loading = null;
      throw error;
    },
  );
  return loading;
}

export function startProgress() {
  // The first page's load: index.html's boot screen (the page's outline) is the indicator. The
  // bar's code and its forced layouts (nprogress reads offsetWidth as the new page lands)
  // would only add blocking time to a first open (decision 057).
  if (document.getElementById('boot')) return;
  running = true;
  if (nprogress) {
    nprogress.start();
    return;
  }
  load().then(
    (NProgress) => {
      if (running) NProgress.start();
    },
    () => undefined,
  );
}

export function doneProgress() {
  running = false;
  nprogress?.done();
}
