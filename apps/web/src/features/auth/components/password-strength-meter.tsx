import type { PasswordStrength } from '@coffer/contract/password-strength';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadPasswordStrength } from '../lib/password-strength';
import { filledSegments, passwordLevel } from '../utils/password-level';
import './password-strength-meter.css';

const SEGMENTS = [0, 1, 2, 3];

/**
 * The strength of the password being typed: 4 segments and a word. The rule loads when the
 * page mounts, so it is usually there by the first key; until then the meter says so.
 */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const { t } = useTranslation();
  const [check, setCheck] = useState<((p: string) => PasswordStrength) | null>(null);
  useEffect(() => {
    let live = true;
    loadPasswordStrength().then(
      (fn) => live && setCheck(() => fn),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  // Scoring takes a few milliseconds: typing stays responsive.
  const typed = useDeferredValue(password);
  const level = useMemo(() => (check && typed ? passwordLevel(check(typed)) : null), [check, typed]);

  if (!password) return null;
  const filled = level ? filledSegments(level) : 0;
  return (
    <div className="password-strength" data-testid="password-strength" data-level={level ?? 'checking'}>
      <div className="password-strength__bar" aria-hidden="true">
        {SEGMENTS.map((i) => (
          <span key={i} className={i < filled ? `password-strength__segment is-${level}` : 'password-strength__segment'} />
        ))}
      </div>
      <span className="password-strength__label" aria-live="polite">
        {level ? t('auth.strength.label', { level: t(`auth.strength.${level}`) }) : t('auth.strength.checking')}
      </span>
    </div>
  );
}
