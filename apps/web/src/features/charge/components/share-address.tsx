import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { copyText } from '../../../lib/clipboard';
import { toastDanger, toastSuccess } from '../../../lib/notify';
import { qrPng } from '../utils/qr-png';

interface ShareAddressProps {
  /** Undefined while it loads: the button is drawn, disabled, so the page does not move when it comes. */
  address: string | undefined;
  /** "USDT on Ethereum": the shared text says what the address is for. */
  what: string;
}

/**
 * Shares the deposit address with its QR code through the system share sheet (Web Share API,
 * the picture when the browser can share files); where there is no share sheet (most
 * desktops), copies the address instead and says so.
 */
export function ShareAddress({ address, what }: ShareAddressProps) {
  const { t } = useTranslation();
  const share = async () => {
    if (address === undefined) return;
    const text = t('charge.shareText', { what, address });
    if (typeof navigator.share !== 'function') {
      if (await copyText(address)) toastSuccess(t('charge.shareCopied'));
      else toastDanger(t('chain.copyFailed'));
      return;
    }
    const file = await qrPng(address, 'deposit-address.png').catch(() => null);
    const withPicture = file && navigator.canShare?.({ files: [file] }) ? { files: [file] } : {};
    try {
      await navigator.share({ title: t('charge.shareTitle'), text, ...withPicture });
    } catch {
      // Dismissed by the user, or refused: nothing to report.
    }
  };

  return (
    <Button
      block
      fill="outline"
      className="chain-action mt-3"
      disabled={address === undefined}
      onClick={() => void share()}
      data-testid="deposit-share"
    >
      {t('charge.share')}
    </Button>
  );
}
