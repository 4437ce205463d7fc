import { Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

interface SecondFactorInputProps {
  value: string;
  onChange: (value: string) => void;
  testId: string;
}

/**
 * Where the app asks for an authenticator code or a recovery code (sign-in's second step,
 * turning two-factor or a protection off, cancelling a reset): one field, one label, the
 * browser's one-time-code autofill, room for a recovery code's 11 characters.
 */
export function SecondFactorInput({ value, onChange, testId }: SecondFactorInputProps) {
  const { t } = useTranslation();
  return (
    <Input
      value={value}
      onChange={onChange}
      autoComplete="one-time-code"
      maxLength={11}
      placeholder={t('twoFactor.codeOrRecovery')}
      aria-label={t('twoFactor.codeOrRecovery')}
      data-testid={testId}
    />
  );
}
