/** "0.3%" from basis points, on the digits (no float, no Math). */
export function percentFromBps(bps: number): string {
  const digits = String(bps).padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/^0+(?=\d)/, '');
  const rest = digits.slice(-2).replace(/0+$/, '');
  return `${whole}${rest ? `.${rest}` : ''}%`;
}
