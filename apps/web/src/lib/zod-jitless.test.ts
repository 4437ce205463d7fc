import { describe, expect, it } from 'vitest';
import './zod-jitless';

describe('zod-jitless', () => {
  it('is honoured by zod when zod loads after it', async () => {
    const { config, z } = await import('zod');
    expect(config().jitless).toBe(true);
    // An object schema still parses (the jitless path), and refuses a wrong shape.
    const schema = z.object({ amount: z.string() });
    expect(schema.parse({ amount: '1.5' })).toEqual({ amount: '1.5' });
    expect(schema.safeParse({ amount: 1 }).success).toBe(false);
  });
});
