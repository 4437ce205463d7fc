// Compiles src/chain/artifacts/TestToken.sol offline with solc-js (the compiler ships inside
// the npm package) and writes src/chain/artifacts/TestToken.json ({abi, bytecode}).
// Usage: npm run chain:compile-token -w @coffer/server   (or: node scripts/compile-test-token.mjs)
// Deterministic: same solc version + source = same bytecode. `--check` fails if the
// committed artifact differs from a fresh compile.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import solc from 'solc';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'chain', 'artifacts');
const source = readFileSync(join(dir, 'TestToken.sol'), 'utf8');

const input = {
  language: 'Solidity',
  sources: { 'TestToken.sol': { content: source } },
  settings: {
    // cancun: accepted by anvil and by every public EVM chain worth testing against
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs: 200 },
    metadata: { bytecodeHash: 'none' },
    outputSelection: { 'TestToken.sol': { TestToken: ['abi', 'evm.bytecode.object'] } },
  },
};

const started = performance.now();
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const problems = output.errors ?? [];
for (const p of problems) console.error(p.formattedMessage ?? p.message);
if (problems.some((p) => p.severity === 'error')) process.exit(1);

const contract = output.contracts['TestToken.sol'].TestToken;
const artifact = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
const text = `${JSON.stringify(artifact, null, 2)}\n`;
const target = join(dir, 'TestToken.json');

if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== text) {
    console.error(`${target} is stale: run node scripts/compile-test-token.mjs`);
    process.exit(1);
  }
  console.log(`TestToken.json up to date (solc ${solc.version()})`);
} else {
  writeFileSync(target, text);
  const ms = Math.round(performance.now() - started);
  console.log(`wrote ${target} (solc ${solc.version()}, ${(artifact.bytecode.length - 2) / 2} bytes, ${ms} ms)`);
}
