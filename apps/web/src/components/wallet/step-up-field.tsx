import { Input, type InputRef } from 'antd-mobile';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { StepUp } from '../../lib/step-up';
import { useInputAria } from '../../lib/use-input-aria';

interface StepUpFieldProps {
  stepUp: StepUp;
  /** Prefix of the element ids and test ids, e.g. `transfer` (transfer-totp, transfer-totp-error). */
  name: string;
  /** Whether missing input is shown as an error yet (after the first Next). */
  showErrors: boolean;
  onFocus?: () => void;
}

/**
 * The second factor inline under a money form (decision 033): the authenticator or a recovery
 * code, or, for a user with passkeys, the choice to confirm with a passkey when sending.
 */
export function StepUpField({ stepUp, name, showErrors, onFocus }: StepUpFieldProps) {
  const { t } = useTranslation();
  const ref = useRef<InputRef>(null);
  const error = stepUp.error(showErrors);
  const id = `${name}-totp`;
  useInputAria(ref, error !== null, error === null ? `${id}-hint` : `${id}-error ${id}-hint`);
  if (!stepUp.required) return null;
  const passkey = stepUp.mode === 'passkey';
  return (
    <section className="wallet-card" data-testid={`${id}-card`}>
      <label htmlFor={id} className="wallet-card-title block">
        {t('stepUp.code')}
      </label>
      {passkey ? (
        <p className="wallet-muted m-0" data-testid={`${id}-passkey`}>
          {t('stepUp.passkeyChosen')}
        </p>
      ) : (
        <div className={`step-up-input${error === null ? '' : ' step-up-input--invalid'}`}>
          <Input
            id={id}
            name={id}
            value={stepUp.code}
            onChange={stepUp.setCode}
            onFocus={onFocus}
            autoComplete="one-time-code"
            maxLength={11}
            placeholder={t('twoFactor.codePlaceholder')}
            ref={ref}
            data-testid={id}
          />
        </div>
      )}
      {error === null ? null : (
        <div id={`${id}-error`} className="wallet-error" role="alert" data-testid={`${id}-error`}>
          {error}
        </div>
      )}
      <div id={`${id}-hint`} className="wallet-muted mt-2">
        {passkey ? null : t('stepUp.hint')}
      </div>
      {stepUp.hasPasskeys ? (
        <button
          type="button"
          className="wallet-link mt-2"
          onClick={() => stepUp.choose(passkey ? 'code' : 'passkey')}
          data-testid={`${id}-switch`}
        >
          {passkey ? t('stepUp.useCode') : t('stepUp.usePasskey')}
        </button>
      ) : null}
    </section>
  );
}
