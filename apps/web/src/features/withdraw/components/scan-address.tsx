import { Popup } from 'antd-mobile';
import { ScanCodeOutline } from 'antd-mobile-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastDanger } from '../../../lib/notify';
import { scannedAddress } from '../utils/scanned-address';

/** The part of the Barcode Detection API used here (not in TypeScript's DOM types yet). */
interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type DetectorClass = new (options: { formats: string[] }) => Detector;

const hasCamera = () => typeof navigator.mediaDevices?.getUserMedia === 'function';

/**
 * The browser's own BarcodeDetector where it has one (Chrome on Android, Safari 17+), else
 * jsQR reading the camera's frames from a canvas: loaded only when a scan starts, so the
 * withdrawal page does not carry it.
 */
async function qrDetector(): Promise<Detector> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (typeof Native === 'function') return new Native({ formats: ['qr_code'] });
  const { default: jsQR } = await import('jsqr');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error('no canvas');
  return {
    async detect(video) {
      const { videoWidth: width, videoHeight: height } = video;
      if (width === 0 || height === 0) return [];
      canvas.width = width;
      canvas.height = height;
      context.drawImage(video, 0, 0, width, height);
      const code = jsQR(context.getImageData(0, 0, width, height).data, width, height, { inversionAttempts: 'attemptBoth' });
      return code ? [{ rawValue: code.data }] : [];
    },
  };
}

/** Scans a QR code into the withdrawal address with the camera; without a camera API the button is not shown. */
export function ScanAddressButton({ onScan }: { onScan: (address: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!hasCamera()) return null;
  return (
    <>
      <button
        type="button"
        className="wallet-icon-button"
        aria-label={t('withdraw.scan')}
        onClick={() => setOpen(true)}
        data-testid="withdraw-scan"
      >
        <ScanCodeOutline aria-hidden />
      </button>
      <Popup visible={open} onMaskClick={() => setOpen(false)} onClose={() => setOpen(false)} destroyOnClose>
        {open ? (
          <Scanner
            onResult={(raw) => {
              setOpen(false);
              onScan(scannedAddress(raw));
            }}
            onFail={() => {
              setOpen(false);
              toastDanger(t('withdraw.scanFailed'));
            }}
          />
        ) : null}
      </Popup>
    </>
  );
}

/** The camera's picture, read frame after frame until a QR code is found. */
function Scanner({ onResult, onFail }: { onResult: (raw: string) => void; onFail: () => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const done = useRef({ onResult, onFail });
  done.current = { onResult, onFail };

  useEffect(() => {
    let stream: MediaStream | null = null;
    let frame = 0;
    let stopped = false;
    const start = async () => {
      const detector = await qrDetector();
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      const element = video.current;
      if (stopped || !element) return;
      element.srcObject = stream;
      await element.play().catch(() => undefined);
      const look = async () => {
        if (stopped) return;
        const codes = element.readyState >= 2 ? await detector.detect(element).catch(() => []) : [];
        const raw = codes.find((code) => code.rawValue.trim())?.rawValue;
        if (raw && !stopped) done.current.onResult(raw);
        else frame = requestAnimationFrame(() => void look());
      };
      await look();
    };
    // Camera refused or missing: say so and close.
    start().catch(() => {
      if (!stopped) done.current.onFail();
    });
    return () => {
      stopped = true;
      cancelAnimationFrame(frame);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  return (
    <div className="scan-address" data-testid="withdraw-scanner">
      <p className="wallet-muted m-0 mb-2">{t('withdraw.scanHint')}</p>
      <video ref={video} className="scan-address-video" muted playsInline />
    </div>
  );
}
