import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { ANVIL_TEST_MNEMONIC, assertMnemonicAllowed, HdWallet, loadMnemonic, MNEMONIC_FILE_NAME, XpubDeriver } from './keys.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir() {
  const d = mkdtempSync(join(tmpdir(), 'coffer-keys-'));
  dirs.push(d);
  return d;
}

const MNEMONIC = generateMnemonic(wordlist, 256);

describe('HdWallet', () => {
  const wallet = new HdWallet(MNEMONIC);

  it('derives deposit addresses from the xpub that match viem (m/44/60/0/0/i)', () => {
    expect(wallet.xpub).toMatch(/^xpub/);
    for (const i of [0, 1, 2, 7, 1000]) {
      const expected = mnemonicToAccount(MNEMONIC, { addressIndex: i }).address;
      expect(wallet.depositAddress(i)).toBe(expected);
      expect(wallet.depositAccount(i).address).toBe(expected);
    }
  });

  it('matches the well-known anvil accounts for the test mnemonic', () => {
    const anvil = new HdWallet(ANVIL_TEST_MNEMONIC);
    expect(anvil.depositAddress(0)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(anvil.depositAddress(1)).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  });

  it('the hot wallet sits on its own account m/44/60/1/0/0', () => {
    const hot = wallet.hotAccount();
    expect(hot.address).toBe(mnemonicToAccount(MNEMONIC, { accountIndex: 1 }).address);
    for (let i = 0; i < 20; i++) expect(wallet.depositAddress(i)).not.toBe(hot.address);
  });

  it('derives from an xpub alone and refuses private keys', () => {
    const deriver = new XpubDeriver(wallet.xpub);
    expect(deriver.depositAddress(3)).toBe(wallet.depositAddress(3));
    const xprv = HDKey.fromMasterSeed(mnemonicToSeedSync(MNEMONIC)).derive("m/44'/60'/0'").privateExtendedKey;
    expect(() => new XpubDeriver(xprv)).toThrow(/extended public key/);
  });

  it('refuses bad indexes and invalid mnemonics', () => {
    expect(() => wallet.depositAddress(-1)).toThrow(RangeError);
    expect(() => wallet.depositAddress(2 ** 31)).toThrow(RangeError);
    expect(() => wallet.depositAddress(1.5)).toThrow(RangeError);
    expect(() => new HdWallet('test test test test test test test test test test test test')).toThrow(/not a valid/);
  });

  it('signs: a deposit account signature recovers to its address', async () => {
    const { verifyMessage } = await import('viem');
    const account = wallet.depositAccount(5);
    const signature = await account.signMessage!({ message: 'sweep' });
    expect(await verifyMessage({ address: wallet.depositAddress(5), message: 'sweep', signature })).toBe(true);
  });
});

describe('loadMnemonic', () => {
  it('creates DATA_DIR/wallet-mnemonic (0600, dir 0700) once and reuses it', () => {
    const dataDir = join(tempDir(), 'data');
    const first = loadMnemonic({ dataDir, allowGenerate: true });
    expect(first.generated).toBe(true);
    expect(first.source).toBe('data-dir');
    expect(first.mnemonic.split(' ')).toHaveLength(24);
    expect(statSync(join(dataDir, MNEMONIC_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);

    const again = loadMnemonic({ dataDir, allowGenerate: true });
    expect(again).toEqual({ mnemonic: first.mnemonic, generated: false, source: 'data-dir' });
    // also without permission to generate, once it exists
    expect(loadMnemonic({ dataDir, allowGenerate: false }).mnemonic).toBe(first.mnemonic);
  });

  it('prefers the value, then the file, then DATA_DIR', () => {
    const dataDir = tempDir();
    const file = join(dataDir, 'secret');
    const other = generateMnemonic(wordlist, 128);
    writeFileSync(file, `  ${other.split(' ').join('\n')}\n`);
    expect(loadMnemonic({ mnemonic: ` ${MNEMONIC.toUpperCase()} `, mnemonicFile: file, dataDir, allowGenerate: true })).toEqual({
      mnemonic: MNEMONIC,
      generated: false,
      source: 'env',
    });
    expect(loadMnemonic({ mnemonic: '', mnemonicFile: file, dataDir, allowGenerate: true })).toEqual({
      mnemonic: other,
      generated: false,
      source: 'file',
    });
  });

  it('refuses invalid or missing mnemonics without echoing them', () => {
    const dataDir = tempDir();
    const bad = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon';
    expect(() => loadMnemonic({ mnemonic: bad, dataDir, allowGenerate: true })).toThrow(/not a valid BIP-39/);
    try {
      loadMnemonic({ mnemonic: bad, dataDir, allowGenerate: true });
    } catch (err) {
      expect((err as Error).message).not.toContain('abandon');
    }
    expect(() => loadMnemonic({ mnemonic: 'correct horse battery staple', dataDir, allowGenerate: true })).toThrow();
    expect(() => loadMnemonic({ mnemonicFile: join(dataDir, 'missing'), dataDir, allowGenerate: true })).toThrow(/cannot read/);
    expect(() => loadMnemonic({ dataDir, allowGenerate: false })).toThrow(/no wallet mnemonic/);
  });
});

describe('assertMnemonicAllowed', () => {
  it('refuses the anvil test mnemonic off local chains', () => {
    expect(() => assertMnemonicAllowed(ANVIL_TEST_MNEMONIC, 1)).toThrow(/refused on chain 1/);
    expect(() => assertMnemonicAllowed(` ${ANVIL_TEST_MNEMONIC.toUpperCase()}`, 11155111)).toThrow();
    expect(() => assertMnemonicAllowed(ANVIL_TEST_MNEMONIC, 31337)).not.toThrow();
    expect(() => assertMnemonicAllowed(ANVIL_TEST_MNEMONIC, 1337)).not.toThrow();
    expect(() => assertMnemonicAllowed(MNEMONIC, 1)).not.toThrow();
  });
});
