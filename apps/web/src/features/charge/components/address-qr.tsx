import { Skeleton } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { QR_QUIET_ZONE, qrPath } from '../../../lib/qr-path';

interface Symbol {
  value: string;
  size: number;
  path: string;
}

/**
 * The address as a QR code. The encoder loads on first use, so neither the first screen
 * nor the rest of this page waits for it; dark on white in both themes, as scanners need.
 */
export function AddressQr({ value, label }: { value: string; label: string }) {
  const [symbol, setSymbol] = useState<Symbol | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    import('qrcode')
      .then((qrcode) => {
        const { modules } = qrcode.create(value, { errorCorrectionLevel: 'M' });
        if (current) setSymbol({ value, size: modules.size, path: qrPath(modules) });
      })
      .catch(() => {
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [value]);

  if (failed) return null;
  const ready = symbol?.value === value ? symbol : null;
  const box = ready ? ready.size + QR_QUIET_ZONE * 2 : 0;
  return (
    <div className="charge-qr" data-testid="deposit-qr">
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
        <Skeleton animated className="charge-qr-skeleton" />
      )}
    </div>
  );
}
