import { local } from '../../../lib/storage';

/**
 * Whether the last banner list this browser saw had banners. Home reserves the carousel's
 * box in its first paint only then: a visitor who saw banners last time sees them again
 * without a shift, and the usual case of no banners paints no empty box that would collapse.
 */
export const BANNER_SLOT_KEY = 'banner_slot';

export function bannerSlotExpected(): boolean {
  return local.get(BANNER_SLOT_KEY) === '1';
}

export function rememberBannerSlot(hasBanners: boolean) {
  local.set(BANNER_SLOT_KEY, hasBanners ? '1' : '0');
}

/** A banner's target as an in-app path, or null when it is not one ("//host" is another site). */
export function inAppTarget(target: string): string | null {
  return /^\/(?![/\\])/.test(target) ? target : null;
}
