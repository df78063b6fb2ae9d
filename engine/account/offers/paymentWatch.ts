/**
 * The payment popup of an accepted offer (account-flows.md §4 "Offer acceptance", §7 "a url in an
 * answer opens a popup window (default size 640 by 640, closure polled every 100 ms; if it cannot
 * open a console error is logged)", §9 poll interval and the two-minute message), as a plain
 * controller the hook usePaymentFlow drives, so its timing is tested without a browser.
 *
 *  1. open the payment page in a popup (a new tab when the offer says openInNewTab);
 *  2. wait for the page's message — only from the popup itself and from its URL's origin — or for
 *     the popup to close (checked every 100 ms);
 *  3. then show the processing state and poll the pending payment every second until it is no
 *     longer pending; a popup closed without a message first asks the server to abandon the
 *     payment (it cancels a payment still pending, §4: closing means giving up);
 *  4. after two minutes the processing state says it takes too long; `stop()` (closing the
 *     overlay) ends polling.
 */
import type { PendingPayment } from '../../../schemas/generated/offers';
import {
  isPaymentMessage,
  PAYMENT_POLL_MS,
  PAYMENT_POPUP,
  PAYMENT_TOO_LONG_MS,
  PAYMENT_WINDOW_NAME,
} from '../../domain/offers';
import { langParam } from '../../core/i18n';
import type { PendingPaymentRef } from './offersApi';

export type CrossSellingOffer = NonNullable<PendingPayment['crossSellingOffer']>;

/** What the screen shows while and after the popup is open. */
export type PaymentWatchState =
  | { step: 'waiting' }
  | { step: 'processing'; tooLong: boolean }
  | { step: 'success'; crossSelling?: CrossSellingOffer }
  | { step: 'error' }
  /** `because` the portal cancelled it, not its payer (the subscription was cancelled meanwhile). */
  | { step: 'canceled'; because?: NonNullable<PendingPayment['canceledBecause']> }
  /** The popup could not open or the payment could not be read: the generic error (§8). */
  | { step: 'failed' };

/** The parts of `window` the watch uses (a test passes its own). */
export interface PaymentHost {
  open: (url: string, target: string, features?: string) => { closed: boolean } | null;
  addEventListener: (type: 'message', listener: (event: MessageEvent) => void) => void;
  removeEventListener: (type: 'message', listener: (event: MessageEvent) => void) => void;
  location: { href: string };
}

export interface PaymentWatchOptions {
  url: string;
  /** Where to poll; without it the page's message (or the closure) decides. */
  pendingPayment?: PendingPaymentRef;
  openInNewTab?: boolean;
  host: PaymentHost;
  fetchPending: (ref: PendingPaymentRef) => Promise<PendingPayment>;
  abandon: (ref: PendingPaymentRef) => Promise<PendingPayment>;
  onState: (state: PaymentWatchState) => void;
}

export interface PaymentWatch {
  /** Stops listening and polling; no state is reported afterwards. */
  stop: () => void;
}

function finalState(payment: PendingPayment): PaymentWatchState | null {
  switch (payment.status) {
    case 'pending':
      return null;
    case 'success':
      return payment.crossSellingOffer
        ? { step: 'success', crossSelling: payment.crossSellingOffer }
        : { step: 'success' };
    case 'error':
      return { step: 'error' };
    case 'canceled':
      return payment.canceledBecause
        ? { step: 'canceled', because: payment.canceledBecause }
        : { step: 'canceled' };
  }
}

/** A message's status when there is no pending payment to ask. */
function stateOfMessageStatus(status: string | undefined): PaymentWatchState {
  if (status === 'error') return { step: 'error' };
  if (status === 'canceled' || status === 'cancelled') return { step: 'canceled' };
  return { step: 'success' };
}

/**
 * The popup URL with the screen's language (`lang=de|en`), so the payment page speaks the language
 * of the page that opened it, whatever language the payment was stored
 * with when it started (an older payment opened again, a language switched since). Only a page on
 * the portal's own origin (the sandbox) gets it; a provider's page elsewhere is left as it was given.
 */
export function popupUrlInLanguage(url: string, locale: string, pageHref: string): string {
  let target: URL;
  try {
    target = new URL(url, pageHref);
  } catch {
    return url;
  }
  if (target.origin !== new URL(pageHref).origin) return url;
  target.searchParams.set('lang', langParam(locale));
  // A relative URL stays relative (the opener compares the message's origin with it).
  return /^[a-z][a-z\d+.-]*:/i.test(url)
    ? target.toString()
    : `${target.pathname}${target.search}${target.hash}`;
}

export function watchPayment(options: PaymentWatchOptions): PaymentWatch {
  const { host, url, pendingPayment: ref } = options;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  // eslint-disable-next-line prefer-const -- set once below, but `stop` may run before that line
  let closedPoll: ReturnType<typeof setInterval> | undefined;
  let stopped = false;
  let settled = false;

  const report = (state: PaymentWatchState) => {
    if (!stopped) options.onState(state);
  };
  const later = (fn: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };
  const stop = () => {
    stopped = true;
    host.removeEventListener('message', onMessage);
    if (closedPoll !== undefined) clearInterval(closedPoll);
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
  const finish = (state: PaymentWatchState) => {
    report(state);
    stop();
  };

  const features = options.openInNewTab
    ? undefined
    : `width=${PAYMENT_POPUP.width},height=${PAYMENT_POPUP.height}`;
  const popup = host.open(url, PAYMENT_WINDOW_NAME, features);

  function poll(target: PendingPaymentRef) {
    options.fetchPending(target).then(
      (payment) => {
        if (stopped) return;
        const state = finalState(payment);
        if (state) finish(state);
        else later(() => poll(target), PAYMENT_POLL_MS);
      },
      () => finish({ step: 'failed' }),
    );
  }

  function settle(how: 'message' | 'closed', status?: string) {
    if (settled || stopped) return;
    settled = true;
    host.removeEventListener('message', onMessage);
    if (closedPoll !== undefined) clearInterval(closedPoll);
    report({ step: 'processing', tooLong: false });
    later(() => report({ step: 'processing', tooLong: true }), PAYMENT_TOO_LONG_MS);
    if (!ref) {
      finish(how === 'message' ? stateOfMessageStatus(status) : { step: 'canceled' });
      return;
    }
    if (how === 'message') {
      poll(ref);
      return;
    }
    options.abandon(ref).then(
      (payment) => {
        if (stopped) return;
        const state = finalState(payment);
        if (state) finish(state);
        else later(() => poll(ref), PAYMENT_POLL_MS);
      },
      // The abandon call failing says nothing about the payment: ask for its state.
      () => !stopped && poll(ref),
    );
  }

  function onMessage(event: MessageEvent) {
    if (!isPaymentMessage(event, popup, url, host.location.href)) return;
    settle('message', event.data.status);
  }

  if (!popup) {
    console.error(`The payment window could not be opened (blocked by the browser?): ${url}`);
    report({ step: 'failed' });
    stopped = true;
    return { stop };
  }
  report({ step: 'waiting' });
  host.addEventListener('message', onMessage);
  closedPoll = setInterval(() => {
    if (popup.closed) settle('closed');
  }, PAYMENT_POPUP.closurePollMs);
  return { stop };
}
