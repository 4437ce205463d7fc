/**
 * What other modules may use from the address book (docs/security.md, "Address book" and
 * "Unspendable destinations"): the withdrawal asks payableDestination (3008 / 3013) and
 * assertBookAllows (3015 / 3016) before it takes a code.
 */
export { type AddressRules, payableDestination } from './destination.ts';
export { assertBookAllows } from './service.ts';
