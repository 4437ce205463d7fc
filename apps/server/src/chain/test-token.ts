import { type Hex, parseAbi } from 'viem';
import artifact from './artifacts/TestToken.json' with { type: 'json' };

/**
 * ABI of artifacts/TestToken.sol, typed for viem (test-token.test.ts checks it equals the
 * committed artifact's ABI). Rebuild the artifact with `npm run chain:compile-token -w @coffer/server`.
 */
export const testTokenAbi = parseAbi([
  'constructor(string name_, string symbol_, uint8 decimals_)',
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function owner() view returns (address)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
  'function allowance(address, address) view returns (uint256)',
  'function blocked(address) view returns (bool)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function mint(address to, uint256 amount)',
  'function setBlocked(address account, bool isBlocked)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  'event BlockedSet(address indexed account, bool blocked)',
  'error NotOwner()',
  'error ZeroAddress()',
  'error AddressBlocked(address account)',
  'error InsufficientBalance(address account, uint256 balance, uint256 needed)',
  'error InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
]);

/** creation bytecode of TestToken (constructor(name, symbol, decimals)) */
export const testTokenBytecode = artifact.bytecode as Hex;

/** the ABI exactly as the compiler wrote it */
export const testTokenArtifactAbi: unknown = artifact.abi;
