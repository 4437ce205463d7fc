import type { Network } from '@coffer/contract/chain';
import { addressFamily } from '@coffer/contract/rules';
import { useTranslation } from 'react-i18next';
import { checkAddress } from '../../../lib/wallet/address';
import { useAddressBook, useAddressCheck } from '../../../lib/wallet/address-book';

/**
 * The address typed, judged: its shape here, the server's verdict while typing (checksum,
 * unspendable, contract, book, lookalike), notes worth a second look, and the book's entries
 * on this network.
 */
export function useAddressVerdict(network: Network | undefined, address: string) {
  const { t } = useTranslation();
  const addressCheck = network ? checkAddress(address, network.family) : null;
  const remote = useAddressCheck(network?.id, addressCheck?.ok ? addressCheck.value : null);
  const book = useAddressBook();
  const bookEntries = (book.data?.list ?? []).filter((e) => e.networkId === network?.id);

  const waitLeft = (seconds: number) => {
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    return t('addressBook.waitLeft', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  };
  /** The address check's refusal, shown under the field as soon as the server answered. */
  const remoteProblem =
    remote?.problem && remote.problem !== 'format'
      ? t(`withdraw.check.${remote.problem}`, { left: waitLeft(remote.entry?.secondsLeft ?? 0) })
      : null;
  /** Worth a second look but not refused: the user's own deposit address, a lookalike of a past one. */
  const typedFamily = addressFamily(address);
  const addressNotes = [
    ...(network && typedFamily && typedFamily !== network.family ? [t('withdraw.check.otherFamily', { network: network.name })] : []),
    ...(remote?.entry && !remote.problem ? [t('withdraw.check.inBook', { label: remote.entry.label })] : []),
    ...(remote?.warnings ?? []).map((w) => t(`withdraw.check.${w}`, { address: remote?.resembles ?? '' })),
  ];
  // The destination joins the fee quote once the server's address check passed it (a contract may cost more gas).
  const quoteAddress = addressCheck?.ok && remote && !remote.problem ? addressCheck.value : null;

  return { addressCheck, remoteProblem, addressNotes, bookEntries, quoteAddress };
}
