/**
 * What the deposit watcher needs from a chain, independent of its family. EVM chains
 * implement it in evm.ts (EvmChainAdapter), UTXO chains in utxo/adapter.ts (UtxoChainAdapter).
 */
export interface ChainAdapter {
  readonly family: 'evm' | 'utxo';
  chainId(): Promise<number>;
  /** the chain tip (latest block) */
  head(): Promise<{ number: bigint; hash: string }>;
  /** null when the block does not exist (yet) */
  blockHeader(n: bigint): Promise<{ number: bigint; hash: string; parentHash: string } | null>;
  /**
   * Incoming transfers to watched addresses in blocks [from, to] (inclusive): native and
   * tokens. `watched` may hold addresses in any case; only successful transfers with a
   * value above zero are returned, ordered by block, then logIndex (native first).
   */
  scanDeposits(
    from: bigint,
    to: bigint,
    watched: ReadonlySet<string>,
    assets: ReadonlyArray<{ networkId: number; contract: string | null }>,
  ): Promise<ChainDeposit[]>;
  /** the deposit address of HD index `index` (derived from public data only) */
  deriveDepositAddress(index: number): string;
  /** canonical form of a user-entered address, or null if it is not a valid one */
  normalizeAddress(s: string): string | null;
}

export interface ChainDeposit {
  /** the network (asset on this chain) from the `assets` argument */
  networkId: number;
  txHash: string;
  /** log index of the token Transfer; -1 for a native EVM transfer; the output's vout on UTXO */
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  /** sender; for EVM an EIP-55 checksummed address; '' on UTXO (no single sender) */
  from: string;
  /** the watched recipient; for EVM an EIP-55 checksummed address */
  to: string;
  /** base units */
  value: bigint;
}
