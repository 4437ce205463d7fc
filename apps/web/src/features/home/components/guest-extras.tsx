import { BannerSlot } from './banner-slot';
import PublicRates from './public-rates';

/**
 * What the signed-out home adds after its first paint: the banners and the public rates.
 * One chunk, so the landing bundle pays for a single lazy import; the carousel goes below
 * the quick actions, where appearing moves nothing that is already on screen.
 */
export default function GuestExtras() {
  return (
    <>
      <BannerSlot />
      <PublicRates />
    </>
  );
}
