/**
 * A QR symbol as one SVG path: each run of dark modules in a row is one rectangle, drawn
 * in module units. The caller adds the quiet zone with the viewBox.
 */
export interface QrModules {
  size: number;
  /** Row-major, one byte per module, non-zero = dark. */
  data: ArrayLike<number>;
}

export function qrPath({ size, data }: QrModules): string {
  const parts: string[] = [];
  for (let y = 0; y < size; y += 1) {
    let x = 0;
    while (x < size) {
      if (!data[y * size + x]) {
        x += 1;
        continue;
      }
      const start = x;
      while (x < size && data[y * size + x]) x += 1;
      parts.push(`M${start} ${y}h${x - start}v1h-${x - start}z`);
    }
  }
  return parts.join('');
}

/** Modules of quiet zone around the symbol (ISO/IEC 18004 asks for 4). */
export const QR_QUIET_ZONE = 4;
