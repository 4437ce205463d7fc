import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { utxoAccountXpub } from './chain/utxo/address.ts';
import { UTXO_NETWORKS } from './chain/utxo/params.ts';
import { ConfigError, loadConfig } from './config.ts';

const signerEnv = { SIGNER_URL: 'http://signer:7400', SIGNER_SECRET_FILE: '/run/secrets/signer-secret' };

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ INIT_CWD: '/srv/coffer' });
    expect(config).toMatchObject({ PORT: 8080, HOST: '127.0.0.1', LOG_LEVEL: 'info', RATE_LIMIT: true });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
    expect(config).toMatchObject({ WITHDRAWAL_HOLD_HOURS: 24, ADDRESS_BOOK_DELAY_HOURS: 24 });
    // npm start from the repository root keeps data in ./.coffer there.
    expect(config.dataDir).toBe(path.resolve('/srv/coffer', '.coffer'));
  });

  it('stops on a bad value and names every bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (e) {
      const message = (e as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL');
      expect(message).toContain('LOG_LEVEL');
    }
  });

  it('bounds the withdrawal hold and the address-book delay (hours, 0 to 30 days)', () => {
    expect(loadConfig({ WITHDRAWAL_HOLD_HOURS: '0', ADDRESS_BOOK_DELAY_HOURS: '48' })).toMatchObject({
      WITHDRAWAL_HOLD_HOURS: 0,
      ADDRESS_BOOK_DELAY_HOURS: 48,
    });
    expect(() => loadConfig({ WITHDRAWAL_HOLD_HOURS: '721' })).toThrow(/WITHDRAWAL_HOLD_HOURS/);
    expect(() => loadConfig({ ADDRESS_BOOK_DELAY_HOURS: '-1' })).toThrow(/ADDRESS_BOOK_DELAY_HOURS/);
    expect(() => loadConfig({ WITHDRAWAL_HOLD_HOURS: '1.5' })).toThrow(/WITHDRAWAL_HOLD_HOURS/);
  });

  it('bounds the alert limits (check seconds 1-3600, minutes 1 to 7 days, whole numbers)', () => {
    expect(loadConfig({})).toMatchObject({ ALERT_CHECK_SECONDS: 60, ALERT_PAYOUT_WAIT_MINUTES: 30, ALERT_REVIEW_MINUTES: 120 });
    expect(loadConfig({ ALERT_REVIEW_MINUTES: '10080', ALERT_CHECK_SECONDS: '1' })).toMatchObject({
      ALERT_REVIEW_MINUTES: 10080,
      ALERT_CHECK_SECONDS: 1,
    });
    expect(() => loadConfig({ ALERT_REVIEW_MINUTES: '10081' })).toThrow(/ALERT_REVIEW_MINUTES/);
    expect(() => loadConfig({ ALERT_PAYOUT_WAIT_MINUTES: '0' })).toThrow(/ALERT_PAYOUT_WAIT_MINUTES/);
    expect(() => loadConfig({ ALERT_PAYOUT_WAIT_MINUTES: '2.5' })).toThrow(/ALERT_PAYOUT_WAIT_MINUTES/);
    expect(() => loadConfig({ ALERT_CHECK_SECONDS: '0' })).toThrow(/ALERT_CHECK_SECONDS/);
  });

  it('bounds operator sessions: OPERATOR_SESSION_HOURS 1-168 (default 8), OPERATOR_IDLE_MINUTES 5-1440 (default 30)', () => {
    expect(loadConfig({})).toMatchObject({ OPERATOR_SESSION_HOURS: 8, OPERATOR_IDLE_MINUTES: 30 });
    expect(loadConfig({ OPERATOR_SESSION_HOURS: '12', OPERATOR_IDLE_MINUTES: '15' })).toMatchObject({
      OPERATOR_SESSION_HOURS: 12,
      OPERATOR_IDLE_MINUTES: 15,
    });
    expect(() => loadConfig({ OPERATOR_SESSION_HOURS: '0' })).toThrow(/OPERATOR_SESSION_HOURS/);
    expect(() => loadConfig({ OPERATOR_SESSION_HOURS: '169' })).toThrow(/OPERATOR_SESSION_HOURS/);
    expect(() => loadConfig({ OPERATOR_IDLE_MINUTES: '4' })).toThrow(/OPERATOR_IDLE_MINUTES/);
    expect(() => loadConfig({ OPERATOR_IDLE_MINUTES: 'half an hour' })).toThrow(/OPERATOR_IDLE_MINUTES/);
  });

  it('reads production settings', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://app@db:5432/coffer',
      SMTP_URL: 'smtp://mail:25',
      DATA_DIR: '/var/lib/coffer',
      OPERATOR_EMAILS: 'Ops@Example.com, b@x.io',
    });
    expect(config.DATABASE_URL).toBe('postgres://app@db:5432/coffer');
    expect(config.dataDir).toBe('/var/lib/coffer');
    expect(config.OPERATOR_EMAILS).toEqual(['ops@example.com', 'b@x.io']);
  });

  it('derives the passkey relying party from HOST and checks WEBAUTHN_RP_ID / WEBAUTHN_ORIGIN', () => {
    expect(loadConfig({}).webauthn).toEqual({ rpId: 'localhost', origins: ['http://localhost:8080'] });
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '3000' }).webauthn).toEqual({ rpId: 'localhost', origins: ['http://localhost:3000'] });
    expect(loadConfig({ HOST: 'wallet.example.com' }).webauthn).toEqual({
      rpId: 'wallet.example.com',
      origins: ['https://wallet.example.com'],
    });
    expect(
      loadConfig({ WEBAUTHN_RP_ID: 'Example.com', WEBAUTHN_ORIGIN: 'https://wallet.example.com, https://example.com/' }).webauthn,
    ).toEqual({ rpId: 'example.com', origins: ['https://wallet.example.com', 'https://example.com'] });
    for (const [env, variable] of [
      [{ WEBAUTHN_RP_ID: '10.0.0.1' }, 'WEBAUTHN_RP_ID'],
      [{ WEBAUTHN_RP_ID: 'https://example.com' }, 'WEBAUTHN_RP_ID'],
      [{ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'http://example.com' }, 'WEBAUTHN_ORIGIN'],
      [{ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://evil.com' }, 'WEBAUTHN_ORIGIN'],
      [{ WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://example.com/login' }, 'WEBAUTHN_ORIGIN'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(variable);
    }
  });

  it('takes TWO_FACTOR_KEY only as 64 hex characters', () => {
    expect(loadConfig({ TWO_FACTOR_KEY: 'ab'.repeat(32) }).TWO_FACTOR_KEY).toBe('ab'.repeat(32));
    expect(() => loadConfig({ TWO_FACTOR_KEY: 'secret' })).toThrow('TWO_FACTOR_KEY');
  });
});

describe('TRANSFER_BATCHES_IN_FLIGHT', () => {
  it('is 1 by default and takes 1 to 4', () => {
    expect(loadConfig({}).TRANSFER_BATCHES_IN_FLIGHT).toBe(2);
    expect(loadConfig({ TRANSFER_BATCHES_IN_FLIGHT: '2' }).TRANSFER_BATCHES_IN_FLIGHT).toBe(2);
    for (const bad of ['0', '5', 'two'])
      expect(() => loadConfig({ TRANSFER_BATCHES_IN_FLIGHT: bad })).toThrow(/TRANSFER_BATCHES_IN_FLIGHT/);
  });
});

describe('WORKERS (several API processes)', () => {
  const pgUrl = 'postgres://u@db:5432/coffer';
  it('defaults to one process', () => {
    expect(loadConfig({}).WORKERS).toBe(1);
  });
  it('refuses more than one on the embedded database, saying why', () => {
    expect(() => loadConfig({ WORKERS: '2' })).toThrow(/WORKERS: 2 processes need PostgreSQL \(DATABASE_URL\)/);
  });
  it('refuses more than one on the embedded local chain', () => {
    expect(() => loadConfig({ WORKERS: '2', DATABASE_URL: pgUrl })).toThrow(/WORKERS: .*EVM_RPC_URL.*CHAIN=off/);
  });
  it('takes several with PostgreSQL and a chain node (or no chain), within its bound', () => {
    expect(loadConfig({ WORKERS: '4', DATABASE_URL: pgUrl, CHAIN: 'off' }).WORKERS).toBe(4);
    expect(loadConfig({ WORKERS: '2', DATABASE_URL: pgUrl, EVM_RPC_URL: 'http://node:8545', ...signerEnv }).WORKERS).toBe(2);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ WORKERS: '33', DATABASE_URL: pgUrl, CHAIN: 'off' })).toThrow(/WORKERS/);
  });
});

describe('the separate signer (docs/decisions/039-separate-signer.md)', () => {
  it('with a chain node, requires the signer and refuses a mnemonic in the server’s configuration', () => {
    expect(() => loadConfig({ EVM_RPC_URL: 'http://node:8545' })).toThrow(/SIGNER_URL: required with EVM_RPC_URL/);
    expect(() => loadConfig({ EVM_RPC_URL: 'http://node:8545', SIGNER_URL: 'http://signer:7400' })).toThrow(/SIGNER_SECRET_FILE/);
    expect(() => loadConfig({ EVM_RPC_URL: 'http://node:8545', ...signerEnv, WALLET_MNEMONIC_FILE: '/run/secrets/m' })).toThrow(
      /WALLET_MNEMONIC: refused with EVM_RPC_URL/,
    );
    expect(loadConfig({ EVM_RPC_URL: 'http://node:8545', ...signerEnv }).SIGNER_URL).toBe('http://signer:7400');
  });
  it('embedded, runs the signer as a child unless told to keep keys in process', () => {
    expect(loadConfig({}).SIGNER).toBe('child');
    expect(loadConfig({ SIGNER: 'in-process' }).SIGNER).toBe('in-process');
  });
});

describe('several EVM chains (docs/decisions/050-several-networks.md)', () => {
  it('EVM_RPC_URL is one chain whose id the node tells; unset both: embedded, with the local L2 on', () => {
    expect(loadConfig({ EVM_RPC_URL: 'http://node:8545', ...signerEnv }).evmChains).toEqual([{ chainId: null, url: 'http://node:8545' }]);
    expect(loadConfig({}).evmChains).toEqual([]);
    expect(loadConfig({}).LOCAL_L2).toBe(true);
    expect(loadConfig({ LOCAL_L2: 'off' }).LOCAL_L2).toBe(false);
  });
  it('EVM_RPC_URLS lists chainId=url pairs, in order (the first is the main chain)', () => {
    const config = loadConfig({ EVM_RPC_URLS: ' 1=https://eth.example/rpc?key=a , 42161=wss://arb.example', ...signerEnv });
    expect(config.evmChains).toEqual([
      { chainId: 1, url: 'https://eth.example/rpc?key=a' },
      { chainId: 42161, url: 'wss://arb.example' },
    ]);
  });
  it('names a bad entry, a repeated chain and both variables set at once', () => {
    expect(() => loadConfig({ EVM_RPC_URLS: 'https://eth.example', ...signerEnv })).toThrow(/EVM_RPC_URLS: .*must be chainId=url/);
    expect(() => loadConfig({ EVM_RPC_URLS: '0=https://eth.example', ...signerEnv })).toThrow(/chain id of 1-2147483647/);
    expect(() => loadConfig({ EVM_RPC_URLS: '1=ftp://eth.example', ...signerEnv })).toThrow(/the URL must start with http:\/\//);
    expect(() => loadConfig({ EVM_RPC_URLS: '1=http://a,1=http://b', ...signerEnv })).toThrow(/chain 1 is listed twice/);
    expect(() => loadConfig({ EVM_RPC_URL: 'http://a', EVM_RPC_URLS: '1=http://b', ...signerEnv })).toThrow(
      /EVM_RPC_URLS: set either EVM_RPC_URL .* not both/,
    );
  });
  it('needs the signer and allows several processes, as EVM_RPC_URL does', () => {
    expect(() => loadConfig({ EVM_RPC_URLS: '1=http://a' })).toThrow(/SIGNER_URL: required with EVM_RPC_URL\(S\)/);
    const config = loadConfig({
      WORKERS: '2',
      DATABASE_URL: 'postgres://u@db:5432/coffer',
      EVM_RPC_URLS: '1=http://a,10=http://b',
      ...signerEnv,
    });
    expect(config.WORKERS).toBe(2);
  });

  it('reads a UTXO node (UTXO_RPC_URL with UTXO_NETWORK and UTXO_ACCOUNT_XPUB) and names what is missing', () => {
    expect(loadConfig({}).utxoNode).toBeNull();
    expect(loadConfig({}).LOCAL_UTXO).toBe(true);
    expect(loadConfig({ LOCAL_UTXO: 'off' }).LOCAL_UTXO).toBe(false);
    // The local node's block clock: 5 s by default, 0 for none (a test mines over RPC).
    expect(loadConfig({}).LOCAL_UTXO_BLOCK_SECONDS).toBe(5);
    expect(loadConfig({ LOCAL_UTXO_BLOCK_SECONDS: '0' }).LOCAL_UTXO_BLOCK_SECONDS).toBe(0);
    expect(() => loadConfig({ LOCAL_UTXO_BLOCK_SECONDS: '-1' })).toThrow(/LOCAL_UTXO_BLOCK_SECONDS/);
    const seed = new Uint8Array(64).map((_, i) => i + 1);
    const params = UTXO_NETWORKS.litecoin;
    const xpub = utxoAccountXpub(seed, params);
    const node = loadConfig({
      UTXO_RPC_URL: 'http://coffer:s%40cret@10.0.0.5:9332',
      UTXO_NETWORK: 'litecoin',
      UTXO_ACCOUNT_XPUB: xpub,
    }).utxoNode;
    expect(node).toMatchObject({ url: 'http://10.0.0.5:9332', user: 'coffer', password: 's@cret', accountXpub: xpub });
    expect(node?.params.chainId).toBe(params.chainId);
    const bad = (env: Record<string, string>) => () => loadConfig(env);
    expect(bad({ UTXO_RPC_URL: 'http://10.0.0.5:9332', UTXO_NETWORK: 'litecoin', UTXO_ACCOUNT_XPUB: xpub })).toThrow(/user and password/);
    expect(bad({ UTXO_RPC_URL: 'http://u:p@h:9332', UTXO_ACCOUNT_XPUB: xpub })).toThrow(/UTXO_NETWORK is required/);
    expect(bad({ UTXO_RPC_URL: 'http://u:p@h:9332', UTXO_NETWORK: 'dogecoin' })).toThrow(/UTXO_NETWORK/);
    expect(bad({ UTXO_RPC_URL: 'http://u:p@h:9332', UTXO_NETWORK: 'litecoin' })).toThrow(/UTXO_ACCOUNT_XPUB is required/);
    // a test network's key (tpub) for mainnet
    const tpub = utxoAccountXpub(seed, UTXO_NETWORKS['litecoin-regtest']);
    expect(bad({ UTXO_RPC_URL: 'http://u:p@h:9332', UTXO_NETWORK: 'litecoin', UTXO_ACCOUNT_XPUB: tpub })).toThrow(
      /not an account public key of Litecoin/,
    );
    expect(bad({ UTXO_NETWORK: 'litecoin' })).toThrow(/need UTXO_RPC_URL/);
  });
});
