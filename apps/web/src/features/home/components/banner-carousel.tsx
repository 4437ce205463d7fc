import { Swiper } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useBanners } from '../api/get-banners';
import { bannerSlotExpected, inAppTarget, rememberBannerSlot } from '../utils/banner-slot';
import { AppLink } from '../../../app/nav';

/** Banner images are 2:1 (e.g. 750 x 375); the box keeps that ratio whatever the image. */
const IMAGE_WIDTH = 750;
const IMAGE_HEIGHT = 375;
const AUTOPLAY_MS = 5000;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Home's swipeable banners; renders nothing (no box) when no banner is live. */
export default function BannerCarousel() {
  const { t } = useTranslation();
  const banners = useBanners();
  const items = banners.data ?? [];
  const settled = banners.isSuccess || banners.isError;

  useEffect(() => {
    if (settled) rememberBannerSlot(items.length > 0);
  }, [settled, items.length]);

  if (!banners.data) {
    return banners.isPending && bannerSlotExpected() ? <div className="banner-carousel banner-carousel--loading" aria-hidden /> : null;
  }
  if (items.length === 0) return null;

  const several = items.length > 1;
  return (
    <section className="banner-carousel" aria-roledescription="carousel" aria-label={t('home.banners')} data-testid="banner-carousel">
      <Swiper
        loop={several}
        autoplay={several && !prefersReducedMotion()}
        autoplayInterval={AUTOPLAY_MS}
        indicator={several ? undefined : () => null}
        style={{ '--border-radius': '12px' }}
      >
        {items.map((banner, index) => {
          const target = inAppTarget(banner.link.target) ?? '/';
          return (
            <Swiper.Item key={banner.id}>
              <AppLink
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
            </Swiper.Item>
          );
        })}
      </Swiper>
    </section>
  );
}
