import { useTranslation } from 'react-i18next';
import { CodeBox } from './code-box';

interface SecondFactorInputProps {
  value: string;
  onChange: (value: string) => void;
  testId: string;
  /** A refusal of the code (wrong, used), shown under the field. */
  error?: string | null;
}

/**
 * Where the app asks for an authenticator code or a recovery code (sign-in's second step,
 * turning two-step verification or a protection off, cancelling a reset): one boxed field,
 * one label, the browser's one-time-code autofill, room for a recovery code's 11 characters.
 */
export function SecondFactorInput({ value, onChange, testId, error = null }: SecondFactorInputProps) {
  const { t } = useTranslation();
  return (
    <CodeBox
      value={value}
      onChange={onChange}
      autoComplete="one-time-code"
      maxLength={11}
      placeholder={t('twoFactor.codeOrRecovery')}
      label={t('twoFactor.codeOrRecovery')}
      testId={testId}
      error={error}
    />
  );
}
