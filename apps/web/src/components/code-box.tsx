import { Input, type InputProps, type InputRef } from 'antd-mobile';
import { useRef } from 'react';
import { useInputAria } from '../lib/use-input-aria';

export interface CodeBoxProps
  extends Pick<InputProps, 'value' | 'onChange' | 'type' | 'inputMode' | 'autoComplete' | 'maxLength' | 'placeholder'> {
  /** Names the field for screen readers and tests; the error below it is `${testId}-error`. */
  testId: string;
  label: string;
  /** The refusal to show under the field (a wrong code, a wrong password), or null. */
  error?: string | null;
}

/**
 * A code or password field drawn as a box, with its refusal written under it rather than
 * in a toast that is gone before it is read (two-factor enrolment, sign-in's second step).
 */
export function CodeBox({ testId, label, error = null, ...input }: CodeBoxProps) {
  const ref = useRef<InputRef>(null);
  const errorId = `${testId}-error`;
  useInputAria(ref, error !== null, error === null ? undefined : errorId);
  return (
    <div>
      <div className={`code-box${error === null ? '' : ' code-box--invalid'}`}>
        <Input ref={ref} {...input} aria-label={label} data-testid={testId} />
      </div>
      {error === null ? null : (
        <div id={errorId} className="field-error" role="alert" data-testid={errorId}>
          {error}
        </div>
      )}
    </div>
  );
}
