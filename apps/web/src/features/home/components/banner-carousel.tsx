import type { BannerList } from '@coffer/contract/content';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../../lib/nav';
import { usePublicData } from '../../../lib/public-get';
import { bannerSlotExpected, inAppTarget, rememberBannerSlot } from '../utils/banner-slot';

/** Banner images are 2:1 (e.g. 750 x 375); the box keeps that ratio whatever the image. */
const IMAGE_WIDTH = 750;
const IMAGE_HEIGHT = 375;
const AUTOPLAY_MS = 5000;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Home's swipeable banners; renders nothing (no box) when no banner is live. The list comes
 * through a plain fetch (lib/public-get.ts), as the signed-out home renders it while it is
 * meant to become interactive (decision 032).
 */
export default function BannerCarousel() {
  const { t, i18n } = useTranslation();
  const banners = usePublicData<BannerList>('/banner/list', i18n.language);
  const items = banners.state === 'ready' ? banners.data : [];
  const settled = banners.state !== 'pending';

  useEffect(() => {
    if (settled) rememberBannerSlot(items.length > 0);
  }, [settled, items.length]);

  if (banners.state === 'pending') {
    return bannerSlotExpected() ? <div className="banner-carousel banner-carousel--loading" aria-hidden /> : null;
  }
  if (items.length === 0) return null;
  return (
    <section className="banner-carousel" aria-roledescription="carousel" aria-label={t('home.banners')} data-testid="banner-carousel">
      <BannerTrack items={items} />
    </section>
  );
}

/**
 * The slides side by side in a scroll-snapping row: the browser does the swipe, its momentum
 * and the snap (no gesture or spring library). With several slides, one dot per slide (a
 * button: mouse and keyboard users move with them), and the next slide every AUTOPLAY_MS,
 * back to the first after the last. Autoplay waits a full interval after anything the user
 * does to the row (a touch, a scroll, a click, a key), holds while the mouse is over it or the
 * focus is in it and while the tab is hidden, and is off with reduced motion.
 */
function BannerTrack({ items }: { items: BannerList }) {
  const { t } = useTranslation();
  const track = useRef<HTMLDivElement>(null);
  const held = useRef({ hover: false, focus: false, touch: false });
  const touchedAt = useRef(0);
  const [current, setCurrent] = useState(0);
  const several = items.length > 1;

  useEffect(() => {
    if (!several || prefersReducedMotion()) return;
    const timer = window.setInterval(() => {
      const row = track.current;
      const { hover, focus, touch } = held.current;
      if (!row || hover || focus || touch || document.hidden || row.clientWidth === 0) return;
      if (performance.now() - touchedAt.current < AUTOPLAY_MS) return;
      const next = (Math.round(row.scrollLeft / row.clientWidth) + 1) % items.length;
      row.scrollTo({ left: next * row.clientWidth, behavior: 'smooth' });
    }, AUTOPLAY_MS);
    return () => window.clearInterval(timer);
  }, [several, items.length]);

  const touched = () => {
    touchedAt.current = performance.now();
  };
  const hold = (what: 'hover' | 'focus' | 'touch', on: boolean) => {
    held.current[what] = on;
    touched();
  };
  const onScroll = () => {
    const row = track.current;
    if (row && row.clientWidth > 0) setCurrent(Math.round(row.scrollLeft / row.clientWidth));
  };
  const show = (index: number) => {
    touched();
    const row = track.current;
    row?.scrollTo({ left: index * row.clientWidth, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  };

  return (
    <>
      {/* The row's events only hold autoplay; the slides are links, the dots buttons. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: see above */}
      <div
        ref={track}
        className="banner-track"
        onScroll={several ? onScroll : undefined}
        onPointerEnter={(e) => e.pointerType === 'mouse' && hold('hover', true)}
        onPointerLeave={(e) => e.pointerType === 'mouse' && hold('hover', false)}
        onTouchStart={() => hold('touch', true)}
        onTouchEnd={() => hold('touch', false)}
        onTouchCancel={() => hold('touch', false)}
        onWheel={touched}
        onFocus={() => hold('focus', true)}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget)) hold('focus', false);
        }}
      >
        {items.map((banner, index) => {
          const target = inAppTarget(banner.link.target) ?? '/';
          return (
            <AppLink
              key={banner.id}
              to={target}
              className="banner-slide"
              aria-label={banner.title}
              data-testid={`banner-slide-${banner.id}`}
              draggable={false}
            >
              <img
                src={banner.imageUrl}
                alt={banner.title}
                width={IMAGE_WIDTH}
                height={IMAGE_HEIGHT}
                loading={index === 0 ? 'eager' : 'lazy'}
                decoding="async"
                draggable={false}
              />
              <span className="banner-slide-title">{banner.title}</span>
            </AppLink>
          );
        })}
      </div>
      {several ? (
        <div className="banner-dots">
          {items.map((banner, index) => (
            <button
              key={banner.id}
              type="button"
              className="banner-dot"
              aria-label={t('home.bannerShow', { n: index + 1, count: items.length })}
              aria-current={index === current ? 'true' : undefined}
              onClick={() => show(index)}
            />
          ))}
        </div>
      ) : null}
    </>
  );
}
