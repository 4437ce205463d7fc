import type { AddressBookAddBody, AddressBookData, AddressBookEntry, AddressCheckData } from '@coffer/contract/address-book';
import { ErrorCode } from '@coffer/contract/errors';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiGet, apiPost } from '../api-client';
import { queryKeys } from '../query-keys';

/*
 * The withdrawal address book (docs/security.md, "Address book"): its page lists and edits
 * it, /withdraw picks from it and checks a typed address. Shared, so both features use it.
 */

export function useAddressBook() {
  return useQuery({ queryKey: queryKeys.addressBook, queryFn: () => apiGet<AddressBookData>('/address-book'), staleTime: 0 });
}

/** Refreshes the book after a change (the entries' waiting times come from the server's clock). */
export function useRefreshAddressBook() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.addressBook });
}

export function addAddress(body: AddressBookAddBody, fieldCodes: readonly number[] = []): Promise<AddressBookEntry> {
  return apiPost<AddressBookEntry>('/address-book/add', body, { fieldCodes });
}

export function removeAddress(id: number): Promise<null> {
  return apiPost<null>(`/address-book/remove/${id}`);
}

export function setWhitelistOnly(enabled: boolean, totp?: string): Promise<null> {
  return apiPost<null>('/address-book/whitelist', { enabled, ...(totp && { totp }) });
}

/** A check the server refuses (bad input, a network gone) is not worth a pop-up: submit tells. */
const QUIET_CODES = [ErrorCode.INVALID_PARAMS, ErrorCode.CURRENCY_UNAVAILABLE];

/** How long the server is asked again after the last keystroke. */
const CHECK_DEBOUNCE_MS = 350;

/**
 * The server's verdict on a typed destination (POST /api/withdraw/check-address), asked a
 * moment after typing stops and only for something shaped like an address; null meanwhile.
 * Its failures stay quiet: the withdrawal itself is checked again on submit.
 */
export function useAddressCheck(networkId: number | undefined, address: string | null): AddressCheckData | null {
  const [verdict, setVerdict] = useState<{ key: string; data: AddressCheckData } | null>(null);
  const key = networkId && address ? `${networkId}:${address}` : null;
  useEffect(() => {
    if (!key || !networkId || !address) return;
    let current = true;
    const timer = window.setTimeout(() => {
      apiPost<AddressCheckData>('/withdraw/check-address', { networkId, address }, { fieldCodes: QUIET_CODES })
        .then((data) => {
          if (current) setVerdict({ key, data });
        })
        .catch(() => undefined);
    }, CHECK_DEBOUNCE_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [key, networkId, address]);
  return verdict && verdict.key === key ? verdict.data : null;
}
