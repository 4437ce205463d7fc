/**
 * The HTTP layer must send the user to /login on code 2001, but lib/ may not import the
 * router (it lives in app/). The router registers its navigate function here at start.
 */
type Navigate = (to: string) => void;

let navigate: Navigate | null = null;

export function registerNavigate(fn: Navigate) {
  navigate = fn;
}

/** The router adds the page being left as the return target (lib/sign-in-return.ts). */
export function goToLogin() {
  navigate?.('/login');
}
