import { describe, expect, it } from 'vitest';
import { explorerLinks } from './explorer';

const TX = `0x${'ab'.repeat(32)}`;
const ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const etherscan = { explorerUrl: 'https://etherscan.io/address/{address}', explorerTxUrl: 'https://etherscan.io/tx/{tx}' };

describe('explorer links of a record', () => {
  it('fills the transaction and address templates of the network', () => {
    expect(explorerLinks(etherscan, { txHash: TX, address: ADDRESS })).toEqual({
      tx: `https://etherscan.io/tx/${TX}`,
      address: `https://etherscan.io/address/${ADDRESS}`,
    });
  });

  it('puts the values in URL-encoded, so they cannot change the path, query or fragment', () => {
    const links = explorerLinks(
      { explorerUrl: 'https://scan.example/a/{address}?ref=coffer', explorerTxUrl: 'https://scan.example/t/{tx}#top' },
      { txHash: '../x?y=1#z', address: 'bc1 q/&é' },
    );
    expect(links.tx).toBe('https://scan.example/t/..%2Fx%3Fy%3D1%23z#top');
    expect(links.address).toBe('https://scan.example/a/bc1%20q%2F%26%C3%A9?ref=coffer');
  });

  it('fills every placeholder of a template', () => {
    const links = explorerLinks({ explorerUrl: null, explorerTxUrl: 'https://scan.example/{tx}/{tx}' }, { txHash: 'h', address: ADDRESS });
    expect(links).toEqual({ tx: 'https://scan.example/h/h', address: null });
  });

  it('gives no link without a template, a hash or a network, nor for anything but http(s)', () => {
    const local = { explorerUrl: null, explorerTxUrl: null };
    expect(explorerLinks(local, { txHash: TX, address: ADDRESS })).toEqual({ tx: null, address: null });
    expect(explorerLinks(etherscan, { txHash: null, address: ADDRESS }).tx).toBeNull();
    expect(explorerLinks(undefined, { txHash: TX, address: ADDRESS })).toEqual({ tx: null, address: null });
    const hostile = { explorerUrl: 'javascript:alert(1)//{address}', explorerTxUrl: 'data:text/html,{tx}' };
    expect(explorerLinks(hostile, { txHash: TX, address: ADDRESS })).toEqual({ tx: null, address: null });
  });
});
