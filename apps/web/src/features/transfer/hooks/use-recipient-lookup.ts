import type { Recipient } from '@coffer/contract/ledger';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrorOf } from '../../../lib/form-errors';
import { getRecipient, RECIPIENT_FIELD_ERRORS } from '../api/get-recipient';
import type { TransferTarget } from '../api/send-transfer';
import { type RecipientMode, targetOf } from '../utils/recipient-target';

/**
 * Quiet time after the last key before the recipient is looked up by itself: one
 * request per pause, not per key (the server allows 60 lookups a minute per user).
 */
const LOOKUP_DEBOUNCE_MS = 400;

/**
 * The transfer page's recipient: what is typed (by e-mail or UID), its lookup and the
 * reason it is not one. Typing a well-formed e-mail or UID looks it up by itself after a
 * pause; malformed text sends nothing (the check button or Enter says what is wrong).
 * `onEdited` hears every change of the recipient (the form then needs a new request key).
 */
export function useRecipientLookup(onEdited: () => void) {
  const { t } = useTranslation();
  const [mode, setModeState] = useState<RecipientMode>('email');
  const [text, setText] = useState('');
  const [recipient, setRecipient] = useState<Recipient | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [lookingUp, setLookingUp] = useState(false);
  // The lookup in flight: aborted when the text changes or another lookup starts.
  const lookup = useRef<AbortController | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      lookup.current?.abort();
    },
    [],
  );

  const lookUp = async (target: TransferTarget) => {
    lookup.current?.abort();
    const controller = new AbortController();
    lookup.current = controller;
    setError(null);
    setLookingUp(true);
    try {
      const found = await getRecipient(target, controller.signal);
      if (!controller.signal.aborted) setRecipient(found);
    } catch (failure) {
      if (controller.signal.aborted) return;
      setRecipient(null);
      // 3004 / 3005 belong under the field; other refusals were popped up.
      setError(fieldErrorOf(failure, RECIPIENT_FIELD_ERRORS)?.message ?? null);
    } finally {
      if (lookup.current === controller) setLookingUp(false);
    }
  };

  const change = (value: string, inMode: RecipientMode = mode) => {
    clearTimeout(timer.current);
    lookup.current?.abort();
    setText(value);
    setRecipient(null);
    setError(null);
    onEdited();
    const target = targetOf(inMode, value);
    if (target) timer.current = setTimeout(() => void lookUp(target), LOOKUP_DEBOUNCE_MS);
  };

  const setMode = (next: RecipientMode) => {
    setModeState(next);
    change('', next);
  };

  /** A recent recipient tapped: already known from the server, so no lookup. */
  const pick = (known: Recipient) => {
    clearTimeout(timer.current);
    lookup.current?.abort();
    setModeState('uid');
    setText(String(known.uid));
    setRecipient(known);
    setError(null);
    onEdited();
  };

  /** The check button and Enter: look up now, or say why the text is not a recipient. */
  const lookUpNow = () => {
    clearTimeout(timer.current);
    const target = targetOf(mode, text);
    if (target) void lookUp(target);
    else setError(t(mode === 'email' ? 'validation.email' : 'transfer.uidInvalid'));
  };

  return {
    mode,
    setMode,
    text,
    change,
    lookUpNow,
    pick,
    recipient,
    error,
    /** A refusal of the transfer itself that concerns the recipient (unknown, oneself). */
    refuse: (message: string) => {
      setRecipient(null);
      setError(message);
    },
    lookingUp,
    target: targetOf(mode, text),
  };
}

export type RecipientLookup = ReturnType<typeof useRecipientLookup>;
