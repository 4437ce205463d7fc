import { describe, expect, it } from 'vitest';
import { testTokenAbi, testTokenArtifactAbi, testTokenBytecode } from './test-token.ts';

interface Param {
  type: string;
  indexed?: boolean;
}
interface Item {
  type: string;
  name?: string;
  inputs?: Param[];
  outputs?: Param[];
  stateMutability?: string;
}
// names of parameters are documentation; types, order, indexed and mutability are the interface
const canonical = (abi: readonly unknown[]) =>
  (abi as Item[])
    .map((i) =>
      [
        i.type,
        i.name ?? '',
        `(${(i.inputs ?? []).map((p) => `${p.type}${p.indexed ? ' indexed' : ''}`).join(',')})`,
        `(${(i.outputs ?? []).map((p) => p.type).join(',')})`,
        i.stateMutability ?? '',
      ].join(' '),
    )
    .sort();

describe('TestToken artifact', () => {
  it('the typed ABI equals the committed artifact ABI', () => {
    expect(canonical(testTokenAbi)).toEqual(canonical(testTokenArtifactAbi as unknown[]));
    expect(testTokenBytecode).toMatch(/^0x[0-9a-f]{200,}$/);
  });
});
