import { erc20Abi, type PublicClient } from 'viem';

/** Longest wait (ms) for a contract's decimals() answer before the contract counts as silent. */
export const TOKEN_DECIMALS_TIMEOUT_MS = 5_000;

/**
 * What a token contract answers to decimals() on the client's chain, or null when it does not
 * answer (no code at the address, a revert, not an ERC-20, the node too slow): a network must
 * not be pointed at a contract that cannot say how its amounts are scaled.
 */
export async function readTokenDecimals(client: PublicClient, address: `0x${string}`): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), TOKEN_DECIMALS_TIMEOUT_MS);
  });
  try {
    const answer = client.readContract({ address, abi: erc20Abi, functionName: 'decimals' }).then(
      (d) => Number(d),
      () => null,
    );
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
