import { Skeleton } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { QR_QUIET_ZONE, qrPath } from '../../../lib/qr-path';

/** The otpauth URI as a QR code for the authenticator app; the encoder loads on first use. */
export function OtpQr({ value, label }: { value: string; label: string }) {
  const [symbol, setSymbol] = useState<{ value: string; size: number; path: string } | null>(null);
  useEffect(() => {
    let current = true;
    import('qrcode')
      .then((qrcode) => {
        const { modules } = qrcode.create(value, { errorCorrectionLevel: 'M' });
        if (current) setSymbol({ value, size: modules.size, path: qrPath(modules) });
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [value]);
  const ready = symbol?.value === value ? symbol : null;
  const box = ready ? ready.size + QR_QUIET_ZONE * 2 : 0;
  return (
    <div className="mx-auto my-3 h-48 w-48" data-testid="2fa-qr">
      {ready ? (
        <svg
          role="img"
          aria-label={label}
          viewBox={`${-QR_QUIET_ZONE} ${-QR_QUIET_ZONE} ${box} ${box}`}
          shapeRendering="crispEdges"
          width="100%"
          height="100%"
        >
          <rect x={-QR_QUIET_ZONE} y={-QR_QUIET_ZONE} width={box} height={box} fill="#ffffff" />
          <path d={ready.path} fill="#000000" />
        </svg>
      ) : (
        <Skeleton animated className="h-48 w-48" />
      )}
    </div>
  );
}
