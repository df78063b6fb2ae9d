import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { AcceptAnswer } from '../../../schemas/generated/offers';
import { usePortal } from '../../core/PortalContext';
import { useTranslation } from '../../core/translation';
import { ApiError } from '../../core/apiClient';
import { offersApi } from './offersApi';
import { refusedOfferOutcome, type PaymentOutcome } from './paymentOutcomes';
import { popupUrlInLanguage, watchPayment, type PaymentWatch, type PaymentWatchState } from './paymentWatch';

/**
 * The state of an offer's acceptance on a screen (account-flows.md §4 "Offer acceptance"):
 * `accepting` while the accept call runs, then the payment watch's states; `stopped` after the
 * visitor closed the processing overlay (polling ends, §4 "the user may close the overlay to stop
 * polling").
 */
export type PaymentFlowState =
  | { step: 'idle' }
  | { step: 'accepting' }
  | { step: 'stopped' }
  /** The server refused the accept with a reason of its own (an offer taken already): its dialog, nothing charged. */
  | { step: 'refused'; outcome: PaymentOutcome }
  | PaymentWatchState;

export interface PaymentFlow {
  state: PaymentFlowState;
  /** Runs the accept call; its answer applies at once (url null: success) or opens the payment popup. Failures of the call are thrown to the caller. */
  accept: (call: () => Promise<AcceptAnswer>, options?: { openInNewTab?: boolean }) => Promise<void>;
  /** Closes the processing overlay and stops polling. */
  stop: () => void;
  /** Back to idle after an outcome dialog closed. */
  reset: () => void;
  /** Shows why a failed accept call failed: the refusal's own dialog when it has one, else the generic error. */
  fail: (error?: unknown) => void;
}

export function usePaymentFlow(): PaymentFlow {
  const { api } = usePortal();
  const { i18n } = useTranslation();
  const calls = useMemo(() => offersApi(api), [api]);
  const [state, setState] = useState<PaymentFlowState>({ step: 'idle' });
  const watch = useRef<PaymentWatch | null>(null);

  const end = useCallback(() => {
    watch.current?.stop();
    watch.current = null;
  }, []);
  // Leaving the screen stops the watch (no state updates on an unmounted screen).
  useEffect(() => end, [end]);

  const accept = useCallback(
    async (call: () => Promise<AcceptAnswer>, options: { openInNewTab?: boolean } = {}) => {
      end();
      setState({ step: 'accepting' });
      let answer: AcceptAnswer;
      try {
        answer = await call();
      } catch (error) {
        setState({ step: 'idle' });
        throw error;
      }
      if (!answer.url) {
        // §3: no url — the offer applied at once, nothing to pay online.
        setState({ step: 'success' });
        return;
      }
      watch.current = watchPayment({
        // The payment page in the language of this screen, not the one the payment started with.
        url: popupUrlInLanguage(answer.url, i18n.language, window.location.href),
        pendingPayment: answer.pendingPayment,
        openInNewTab: options.openInNewTab,
        host: window,
        fetchPending: calls.pendingPayment,
        abandon: calls.abandonPayment,
        onState: setState,
      });
    },
    [calls, end, i18n],
  );

  const stop = useCallback(() => {
    end();
    setState({ step: 'stopped' });
  }, [end]);
  const reset = useCallback(() => {
    end();
    setState({ step: 'idle' });
  }, [end]);
  const fail = useCallback(
    (error?: unknown) => {
      end();
      const outcome = refusedOfferOutcome(error instanceof ApiError ? error.code : undefined);
      setState(outcome ? { step: 'refused', outcome } : { step: 'failed' });
    },
    [end],
  );

  return { state, accept, stop, reset, fail };
}

/** Whether the flow is busy (the submit buttons wait). */
export const isPaymentBusy = (state: PaymentFlowState) =>
  state.step === 'accepting' || state.step === 'waiting' || state.step === 'processing';
