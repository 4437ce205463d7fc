import { QR_QUIET_ZONE, qrPath } from '../../../lib/qr-path';

/** Pixels per QR module in the shared picture: sharp on any screen, small as a file. */
const MODULE_PX = 8;

/** The address's QR code as a PNG file (dark on white, quiet zone included), for sharing. */
export async function qrPng(value: string, name: string): Promise<File | null> {
  const qrcode = await import('qrcode');
  const { modules } = qrcode.create(value, { errorCorrectionLevel: 'M' });
  const side = (modules.size + QR_QUIET_ZONE * 2) * MODULE_PX;
  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = side;
  const context = canvas.getContext('2d');
  if (!context) return null;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, side, side);
  context.setTransform(MODULE_PX, 0, 0, MODULE_PX, QR_QUIET_ZONE * MODULE_PX, QR_QUIET_ZONE * MODULE_PX);
  context.fillStyle = '#000000';
  context.fill(new Path2D(qrPath(modules)));
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  return blob ? new File([blob], name, { type: 'image/png' }) : null;
}
