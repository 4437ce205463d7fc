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
