/** Spec §9 interface-kit defaults. */
export const NOTICE_DURATION_MS = 3000;
