import type { ZodType } from 'zod';

/**
 * Turns a contract schema into an antd-mobile form rule, so the form refuses exactly what
 * the server would refuse, with a translated message.
 */
export function schemaRule(schema: ZodType, message: string) {
  return {
    validator: async (_rule: unknown, value: unknown) => {
      if (!schema.safeParse(value ?? '').success) throw new Error(message);
    },
  };
}

/**
 * Spread on every antd-mobile Form: `noValidate` on its <form>, so the browser's own
 * validation bubble never covers (nor pre-empts) the inline errors. antd-mobile hands unknown
 * props to the <form> element, but its types leave this one out, hence the cast.
 */
export const NO_NATIVE_VALIDATION = { noValidate: true } as Record<never, never>;
