import type { InputRef } from 'antd-mobile';
import { type RefObject, useEffect } from 'react';

/**
 * antd-mobile's Input puts aria-* props on its wrapper, not on the <input>; this sets
 * aria-invalid and aria-describedby on the native element, where screen readers look.
 */
export function useInputAria(ref: RefObject<InputRef | null>, invalid: boolean, describedBy: string | undefined) {
  useEffect(() => {
    const input = ref.current?.nativeElement;
    if (!input) return;
    input.setAttribute('aria-invalid', String(invalid));
    if (describedBy) input.setAttribute('aria-describedby', describedBy);
    else input.removeAttribute('aria-describedby');
  });
}
