import './banner-carousel.css';
import { Suspense } from 'react';
import { lazyRetrying } from '../../../lib/lazy-retrying';
import { bannerSlotExpected } from '../utils/banner-slot';

// The carousel is its own chunk, loaded by the home widgets that themselves load after the
// first paint (never by the landing bundle).
// Banners are no reason to lose the home page: offline, the slot stays empty until a later visit.
const BannerCarousel = lazyRetrying(() => import('./banner-carousel'), NoBanners);

function NoBanners() {
  return null;
}

/**
 * The carousel's place on home. While its chunk loads, a box of the banners' aspect ratio
 * holds the space when the last visit saw banners (see bannerSlotExpected).
 */
export function BannerSlot() {
  const placeholder = bannerSlotExpected() ? <div className="banner-carousel banner-carousel--loading" aria-hidden /> : null;
  return (
    <Suspense fallback={placeholder}>
      <BannerCarousel />
    </Suspense>
  );
}
