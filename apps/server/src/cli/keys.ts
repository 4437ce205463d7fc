import { HdWallet, loadMnemonic } from '../chain/keys.ts';
import type { Config } from '../config.ts';
import { readSecretFile } from '../signer/channel.ts';
import { SignerClient, SignerKeyring } from '../signer/client.ts';

/**
 * The keys an operator command may use for addresses: the signer's xpub and hot address when
 * SIGNER_URL is set (production: no mnemonic on this host, docs/decisions/039-separate-signer.md),
 * else the embedded mnemonic in DATA_DIR.
 */
export async function cliKeyring(config: Config): Promise<HdWallet> {
  if (config.SIGNER_URL) {
    return SignerKeyring.connect(new SignerClient(config.SIGNER_URL, readSecretFile(config.SIGNER_SECRET_FILE as string)));
  }
  const { mnemonic } = loadMnemonic({
    mnemonic: config.WALLET_MNEMONIC,
    mnemonicFile: config.WALLET_MNEMONIC_FILE,
    dataDir: config.dataDir,
    allowGenerate: false,
  });
  return new HdWallet(mnemonic);
}
