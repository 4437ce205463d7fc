import './motion';
import { NumberKeyboard } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { appendAmountKey, deleteAmountKey } from '../../lib/amount-input';

export interface AmountFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Decimals of the currency: the keypad will not let more be typed. */
  decimals: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  placeholder?: string;
  suffix?: string;
  invalid?: boolean;
  testId?: string;
}

/**
 * A read-only amount display driven by antd's numeric keypad: phones get no system
 * keyboard, and every key press goes through appendAmountKey so the text is always a
 * valid decimal for the currency. Pages put a KeyboardSpacer at their end so the keypad
 * never hides the last fields.
 */
export function AmountField({
  value,
  onChange,
  decimals,
  open,
  onOpenChange,
  placeholder,
  suffix,
  invalid,
  testId = 'amount-field',
}: AmountFieldProps) {
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        className={`amount-field${open ? ' amount-field--active' : ''}${invalid ? ' amount-field--invalid' : ''}`}
        data-testid={testId}
        aria-label={placeholder}
        onClick={() => onOpenChange(true)}
      >
        <span className={value ? 'amount-field-value' : 'amount-field-placeholder'}>{value || placeholder}</span>
        {open ? <span className="amount-field-caret" aria-hidden /> : null}
        {suffix ? <span className="amount-field-suffix">{suffix}</span> : null}
      </button>
      <NumberKeyboard
        visible={open}
        customKey={decimals > 0 ? '.' : undefined}
        confirmText={t('common.confirm')}
        showCloseButton={false}
        onInput={(key) => onChange(appendAmountKey(value, key, decimals))}
        onDelete={() => onChange(deleteAmountKey(value))}
        onClose={() => onOpenChange(false)}
        safeArea
      />
    </>
  );
}

/** Room at the bottom of a page for the open keypad. */
export function KeyboardSpacer({ open }: { open: boolean }) {
  return open ? <div className="amount-keyboard-spacer" aria-hidden /> : null;
}
