import { z } from 'zod';
import { ADDRESS_MAX } from './chain.ts';
import { id, isoTime, queryId, safeText } from './common.ts';

/** Longest address-book label (after trimming). */
export const ADDRESS_LABEL_MAX = 40;
/** Most entries one user may keep (all networks together). */
export const ADDRESS_BOOK_MAX_ENTRIES = 100;

/** The authenticator (or a recovery) code, as the withdrawal asks for it. */
const secondFactor = z.string().trim().toLowerCase().max(11).optional();

/** A saved withdrawal destination (docs/security.md, "Address book"). */
export const addressBookEntry = z.object({
  id: z.number().int(),
  networkId: z.number().int(),
  networkName: z.string(),
  code: z.string().describe('the currency of the network'),
  address: z.string(),
  label: z.string(),
  createdAt: isoTime,
  /** From this time on a withdrawal may go to it. */
  usableAt: isoTime,
  usable: z.boolean(),
  /** Whole seconds until usableAt (0 once usable). */
  secondsLeft: z.number().int().min(0),
});
export type AddressBookEntry = z.infer<typeof addressBookEntry>;

export const addressBookQuery = z.object({ networkId: queryId.optional() });
export type AddressBookQuery = z.infer<typeof addressBookQuery>;

export const addressBookData = z.object({
  list: z.array(addressBookEntry),
  /** "Whitelist only": withdrawals go only to usable entries (3016 otherwise). */
  whitelistOnly: z.boolean(),
  /** Hours a new entry waits unless added with the second factor. */
  delayHours: z.number().int().min(0),
});
export type AddressBookData = z.infer<typeof addressBookData>;

export const addressBookAddBody = z.object({
  networkId: id,
  address: safeText({ min: 1, max: ADDRESS_MAX }),
  label: safeText({ min: 1, max: ADDRESS_LABEL_MAX }),
  /** With a right second factor the entry is usable at once; wrong: 2007. */
  totp: secondFactor,
});
export type AddressBookAddBody = z.infer<typeof addressBookAddBody>;

export const addressBookWhitelistBody = z.object({
  enabled: z.boolean(),
  /** Turning it off needs the second factor when the user has one (2006 / 2007). */
  totp: secondFactor,
});
export type AddressBookWhitelistBody = z.infer<typeof addressBookWhitelistBody>;

export const addressCheckBody = z.object({
  networkId: id,
  address: safeText({ min: 1, max: ADDRESS_MAX }),
});
export type AddressCheckBody = z.infer<typeof addressCheckBody>;

/**
 * Why a destination would be refused, in the order they are judged: not an address, a wrong
 * EIP-55 checksum, Coffer's own hot wallet, a destination that burns funds (3013), a token
 * contract (3013), outside the book with "whitelist only" on (3016), a book entry still
 * waiting (3015).
 */
export const addressProblem = z.enum(['format', 'checksum', 'own_hot_wallet', 'unspendable', 'contract', 'not_in_book', 'not_yet_usable']);
export type AddressProblem = z.infer<typeof addressProblem>;

/** Worth a second look, not a refusal: the user's own deposit address; one that looks like a past one. */
export const addressWarning = z.enum(['own_deposit', 'lookalike']);
export type AddressWarning = z.infer<typeof addressWarning>;

export const addressCheckData = z.object({
  /** The checksummed form, or null when it is not an address. */
  address: z.string().nullable(),
  problem: addressProblem.nullable(),
  warnings: z.array(addressWarning),
  /** For lookalike: the past destination or book entry it resembles. */
  resembles: z.string().nullable(),
  /** The book entry of this address on this network, if any. */
  entry: addressBookEntry.nullable(),
});
export type AddressCheckData = z.infer<typeof addressCheckData>;
