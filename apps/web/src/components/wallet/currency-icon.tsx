/** Currency logo from public/currency; the contract's icon path when known, else by code. */
export function CurrencyIcon({ code, icon, size = 32 }: { code: string; icon?: string | null; size?: number }) {
  return (
    <img
      className="currency-icon"
      src={icon || `/currency/${code.toLowerCase()}.svg`}
      alt={code}
      width={size}
      height={size}
      loading="lazy"
    />
  );
}
