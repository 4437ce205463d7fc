import './motion';
import { NumberKeyboard } from 'antd-mobile';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { appendAmountKey, deleteAmountKey } from '../../lib/amount-input';

export interface AmountFieldProps {
  value: string;
  onChange: (value: string) => void;
  /**
   * Decimals of the currency: the keypad will not let more be typed. Null while the currency
   * is not known yet (still loading): the field is disabled, since a key typed then would be
   * judged by the wrong precision (a point refused as if the currency had none).
   */
  decimals: number | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The field's accessible name ("Amount"); the placeholder is a hint, not a name. */
  label: string;
  placeholder?: string;
  suffix?: string;
  invalid?: boolean;
  /** Ids of what explains the field (its error message), read out with its name. */
  describedBy?: string;
  testId?: string;
}

/** Fields that take typing themselves: focusing one closes the keypad. */
const EDITABLE_SELECTOR = 'input, textarea, select, [contenteditable="true"]';

/** The key a hardware keyboard press means to the keypad, or null for other keys. */
function keypadKey(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): string | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (/^\d$/.test(event.key)) return event.key;
  if (event.key === '.' || event.key === ',' || event.key === 'Decimal') return '.';
  if (event.key === 'Backspace' || event.key === 'Delete') return 'backspace';
  if (event.key === 'Enter' || event.key === 'Escape') return 'close';
  return null;
}

/** Whether a refused key was a decimal beyond what the currency allows. */
function droppedDecimal(current: string, key: string, decimals: number): boolean {
  if (key === '.') return decimals === 0;
  const frac = current.split('.')[1];
  return /^\d$/.test(key) && frac !== undefined && frac.length >= decimals;
}

/**
 * A read-only amount display driven by antd's numeric keypad: phones get no system
 * keyboard, and every key press goes through appendAmountKey so the text is always a
 * valid decimal for the currency. A hardware keyboard types into it too (digits, the
 * point, Backspace; Enter or Escape closes); a decimal past the currency's precision is
 * refused and said so under the field. Focusing any other field closes the keypad.
 * Pages put a KeyboardSpacer at their end so the keypad never hides the last fields.
 */
export function AmountField({
  value,
  onChange,
  decimals,
  open,
  onOpenChange,
  label,
  placeholder,
  suffix,
  invalid,
  describedBy,
  testId = 'amount-field',
}: AmountFieldProps) {
  const { t } = useTranslation();
  const [dropped, setDropped] = useState(false);
  const places = decimals ?? 0;
  const ready = decimals !== null;
  const latest = useRef({ value, decimals: places, onChange, onOpenChange });
  latest.current = { value, decimals: places, onChange, onOpenChange };

  /** One key from the on-screen or a hardware keypad. */
  const press = (key: string) => {
    const { value: current, decimals: places, onChange: change, onOpenChange: setOpen } = latest.current;
    if (key === 'close') {
      setDropped(false);
      setOpen(false);
      return;
    }
    const next = key === 'backspace' ? deleteAmountKey(current) : appendAmountKey(current, key, places);
    setDropped(next === current && droppedDecimal(current, key, places));
    if (next !== current) change(next);
  };
  const pressRef = useRef(press);
  pressRef.current = press;

  useEffect(() => {
    if (!open || !ready) return;
    const onFocusIn = (event: FocusEvent) => {
      if (event.target instanceof Element && event.target.matches(EDITABLE_SELECTOR)) {
        setDropped(false);
        latest.current.onOpenChange(false);
      }
    };
    // While open, keys reach the keypad wherever the focus is (on-screen keys take no
    // focus), except inside another field.
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.target instanceof Element && event.target.matches(EDITABLE_SELECTOR)) return;
      const key = keypadKey(event);
      if (!key) return;
      event.preventDefault();
      pressRef.current(key);
    };
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, ready]);

  /** Closed but focused: a typed digit opens the keypad and counts. */
  const onFieldKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (open) return;
    const key = keypadKey(event);
    if (!key || key === 'close') return;
    event.preventDefault();
    onOpenChange(true);
    press(key);
  };

  return (
    <>
      <button
        type="button"
        className={`amount-field${open ? ' amount-field--active' : ''}${invalid ? ' amount-field--invalid' : ''}`}
        data-testid={testId}
        // The name starts with the label and contains what is shown (the value, else the hint).
        aria-label={`${label}: ${value || placeholder || ''}${suffix ? ` ${suffix}` : ''}`}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        disabled={!ready}
        onClick={() => onOpenChange(true)}
        onKeyDown={onFieldKeyDown}
      >
        <span className={value ? 'amount-field-value' : 'amount-field-placeholder'}>{value || placeholder}</span>
        {open ? <span className="amount-field-caret" aria-hidden /> : null}
        {/* A space between hint and currency, so the shown text reads as it does in the name. */}
        {suffix ? ' ' : null}
        {suffix ? <span className="amount-field-suffix">{suffix}</span> : null}
      </button>
      <div className="wallet-muted amount-field-hint mt-1" aria-live="polite" data-testid={`${testId}-hint`}>
        {dropped ? t('keypad.decimalsDropped', { code: suffix ?? '', decimals: places }) : null}
      </div>
      <NumberKeyboard
        visible={open && ready}
        customKey={places > 0 ? '.' : undefined}
        confirmText={t('common.confirm')}
        showCloseButton={false}
        onInput={(key) => press(key)}
        onDelete={() => press('backspace')}
        onClose={() => press('close')}
        safeArea
      />
    </>
  );
}

/** Room at the bottom of a page for the open keypad. */
export function KeyboardSpacer({ open }: { open: boolean }) {
  return open ? <div className="amount-keyboard-spacer" aria-hidden /> : null;
}
