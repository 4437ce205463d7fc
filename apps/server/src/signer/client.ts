import { type Address, getAddress, type Hex, type LocalAccount, type TransactionSerializable } from 'viem';
import { toAccount } from 'viem/accounts';
import { type Keyring, type SignHint, XpubDeriver } from '../chain/keys.ts';
import { authHeaders, MAC_HEADER, macEquals, NONCE_HEADER, responseMac } from './channel.ts';
import type { SignKey } from './policy.ts';
import type { UtxoParams } from '../chain/utxo/params.ts';
import type { UtxoSigned, UtxoSignRequest } from '../chain/utxo/payout-tx.ts';
import { utxoWire } from './utxo-request.ts';

/** How long the API waits for the signer per request (milliseconds). */
export const SIGNER_TIMEOUT_MS = 10_000;

/** The signer refused (its policy or the channel) or could not be reached: nothing was signed. */
export class SignerRefusedError extends Error {
  constructor(
    readonly refusal: string,
    message: string,
  ) {
    super(`signer refused (${refusal}): ${message}`);
    this.name = 'SignerRefusedError';
  }
}

export interface SignerInfo {
  xpub: string;
  hotAddress: Address;
  chainIds: number[];
  /** the BIP-84 account key of each UTXO chain of its policy, by chain id */
  utxoXpubs?: Record<string, string>;
}

/** Talks to the signer: every request MAC'd, every answer's MAC checked (an impostor's answer is refused). */
export class SignerClient {
  constructor(
    readonly url: string,
    private readonly secret: Buffer,
    private readonly clock: () => number = Date.now,
  ) {}

  private async post<T>(path: string, value: object): Promise<{ status: number; body: T }> {
    const body = JSON.stringify(value);
    const headers = authHeaders(this.secret, 'POST', path, body, this.clock());
    let res: Response;
    try {
      res = await fetch(new URL(path, this.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        signal: AbortSignal.timeout(SIGNER_TIMEOUT_MS),
      });
    } catch (err) {
      throw new SignerRefusedError('unreachable', `${this.url}: ${(err as Error).message}`);
    }
    const text = await res.text();
    const mac = res.headers.get(MAC_HEADER) ?? '';
    if (!macEquals(mac, responseMac(this.secret, headers[NONCE_HEADER] as string, res.status, text))) {
      throw new SignerRefusedError(
        'bad_answer',
        `answer from ${this.url} (status ${res.status}) without a valid MAC: wrong secret or not the signer`,
      );
    }
    return { status: res.status, body: JSON.parse(text) as T };
  }

  async info(): Promise<SignerInfo> {
    const { status, body } = await this.post<SignerInfo & { refused?: string }>('/v1/info', {});
    if (status !== 200) throw new SignerRefusedError(body.refused ?? String(status), 'info');
    return { ...body, hotAddress: getAddress(body.hotAddress) };
  }

  async sign(key: SignKey, tx: TransactionSerializable, hint?: SignHint): Promise<Hex> {
    const { status, body } = await this.post<{ signed?: Hex; refused?: string; message?: string }>('/v1/sign', {
      key,
      ...(hint && { hint }),
      tx: wireTx(tx),
    });
    if (status !== 200 || !body.signed) throw new SignerRefusedError(body.refused ?? String(status), body.message ?? '');
    return body.signed;
  }

  async signUtxo(req: UtxoSignRequest): Promise<UtxoSigned> {
    const { status, body } = await this.post<Partial<UtxoSigned> & { refused?: string; message?: string }>('/v1/sign-utxo', utxoWire(req));
    if (status !== 200 || !body.hex || !body.txid || !body.vsize) {
      throw new SignerRefusedError(body.refused ?? String(status), body.message ?? '');
    }
    return { hex: body.hex, txid: body.txid, vsize: body.vsize };
  }
}

/** A transaction as JSON (bigints as decimal strings); only legacy and EIP-1559 with a recipient are signed. */
function wireTx(tx: TransactionSerializable): object {
  if (!tx.to || tx.nonce === undefined || tx.chainId === undefined || tx.gas === undefined) {
    throw new SignerRefusedError('bad_request', 'a transaction for the signer needs chainId, nonce, to and gas');
  }
  const base = {
    chainId: tx.chainId,
    nonce: tx.nonce,
    to: tx.to,
    value: String(tx.value ?? 0n),
    data: tx.data ?? '0x',
    gas: String(tx.gas),
  };
  if (tx.type === 'legacy' || (tx.type === undefined && tx.gasPrice !== undefined)) {
    return { type: 'legacy', ...base, gasPrice: String(tx.gasPrice ?? 0n) };
  }
  if (tx.type === 'eip1559' || tx.type === undefined) {
    return {
      type: 'eip1559',
      ...base,
      maxFeePerGas: String(tx.maxFeePerGas ?? 0n),
      maxPriorityFeePerGas: String(tx.maxPriorityFeePerGas ?? 0n),
    };
  }
  throw new SignerRefusedError('bad_request', `transaction type ${tx.type} is not signed`);
}

/**
 * The keys as the API, watcher and sweeper see them when a separate signer holds the mnemonic:
 * the deposit xpub and the hot address (from the signer, MAC-checked), and accounts whose
 * signTransaction asks the signer. Messages and typed data are never signed.
 */
export class SignerKeyring implements Keyring {
  private readonly deriver: XpubDeriver;

  private constructor(
    readonly client: SignerClient,
    readonly xpub: string,
    readonly hotAddress: Address,
    private readonly utxoXpubs: Record<string, string>,
  ) {
    this.deriver = new XpubDeriver(xpub);
  }

  static async connect(client: SignerClient): Promise<SignerKeyring> {
    const info = await client.info();
    return new SignerKeyring(client, info.xpub, info.hotAddress, info.utxoXpubs ?? {});
  }

  depositAddress(index: number): Address {
    return this.deriver.depositAddress(index);
  }

  depositAccount(index: number): LocalAccount {
    return this.account(this.depositAddress(index), { kind: 'deposit', index });
  }

  hotAccount(hint?: SignHint): LocalAccount {
    return this.account(this.hotAddress, { kind: 'hot' }, hint);
  }

  async utxoAccountXpub(params: UtxoParams): Promise<string> {
    const xpub = this.utxoXpubs[String(params.chainId)];
    if (!xpub) throw new SignerRefusedError('unknown_chain', `the signer's policy does not cover ${params.label}`);
    return xpub;
  }

  signUtxo(_params: UtxoParams, req: UtxoSignRequest): Promise<UtxoSigned> {
    return this.client.signUtxo(req);
  }

  private account(address: Address, key: SignKey, hint?: SignHint): LocalAccount {
    const refuse = async (): Promise<Hex> => {
      throw new SignerRefusedError('not_signed', 'the signer signs transactions only');
    };
    return toAccount({
      address,
      signMessage: refuse,
      signTypedData: refuse,
      signTransaction: (tx) => this.client.sign(key, tx as TransactionSerializable, hint),
    });
  }
}
