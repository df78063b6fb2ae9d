import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PendingPayment } from '../../../schemas/generated/offers';
import {
  popupUrlInLanguage,
  watchPayment,
  type PaymentHost,
  type PaymentWatchState,
} from '../../../engine/account/offers/paymentWatch';
import { PAYMENT_POLL_MS, PAYMENT_TOO_LONG_MS } from '../../../engine/domain/offers';

const URL_OF_PAGE = '/api/payments/P1/page';
const PORTAL = 'https://portal.example/subscriptions/S1/renewal';
const ref = { id: 'P1', subscriptionId: 'S1' };

/** A window with a popup the test closes or lets post a message. */
function makeHost(popupOpens = true) {
  const popup = { closed: false };
  const listeners = new Set<(event: MessageEvent) => void>();
  const opened: Array<{ url: string; target: string; features?: string }> = [];
  const host: PaymentHost = {
    open: (url, target, features) => {
      opened.push({ url, target, features });
      return popupOpens ? popup : null;
    },
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
    location: { href: PORTAL },
  };
  const post = (data: unknown, origin = 'https://portal.example', source: unknown = popup) => {
    for (const listener of [...listeners]) listener({ data, origin, source } as MessageEvent);
  };
  return { host, popup, opened, post, listeners };
}

function run(
  host: PaymentHost,
  answers: PendingPayment[],
  options: { abandon?: PendingPayment; pendingPayment?: typeof ref | undefined } = {},
) {
  const states: PaymentWatchState[] = [];
  const fetchPending = vi.fn(async () => answers.shift() ?? { status: 'pending' as const });
  const abandon = vi.fn(async () => options.abandon ?? { status: 'canceled' as const });
  const watch = watchPayment({
    url: URL_OF_PAGE,
    pendingPayment: 'pendingPayment' in options ? options.pendingPayment : ref,
    host,
    fetchPending,
    abandon,
    onState: (state) => states.push(state),
  });
  return { states, fetchPending, abandon, watch, last: () => states[states.length - 1] };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('payment popup (account-flows.md §4 "Offer acceptance", §9)', () => {
  it('opens the payment page at 640 × 640 and waits', () => {
    const { host, opened } = makeHost();
    const { states } = run(host, []);
    expect(opened).toEqual([
      { url: URL_OF_PAGE, target: 'portal-payment', features: 'width=640,height=640' },
    ]);
    expect(states).toEqual([{ step: 'waiting' }]);
  });

  it('logs and shows the generic error when the popup cannot open', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { host } = makeHost(false);
    const { states } = run(host, []);
    expect(states).toEqual([{ step: 'failed' }]);
    expect(error).toHaveBeenCalledOnce();
    error.mockRestore();
  });

  it('on the page message polls the pending payment every second until it is no longer pending', async () => {
    const { host, post } = makeHost();
    const offer = {
      product: {
        title: 'Reisetasche',
        images: [{ url: 'https://img.example/bag.png' }],
        url: 'https://shop.example/bag',
      },
      voucherCode: 'DANKE-42',
    };
    const { states, fetchPending, abandon } = run(host, [
      { status: 'pending' },
      { status: 'pending' },
      { status: 'success', crossSellingOffer: offer },
    ]);
    post({ type: 'portal-payment', paymentId: 'P1', status: 'success' });
    await vi.advanceTimersByTimeAsync(0);
    expect(states.at(-1)).toEqual({ step: 'processing', tooLong: false });
    expect(fetchPending).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    expect(fetchPending).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS);
    expect(states.at(-1)).toEqual({ step: 'success', crossSelling: offer });
    expect(abandon).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(PAYMENT_TOO_LONG_MS);
    expect(fetchPending).toHaveBeenCalledTimes(3);
  });

  it('ignores messages from another origin or another window', async () => {
    const { host, post } = makeHost();
    const { states, fetchPending } = run(host, []);
    post({ type: 'portal-payment', status: 'success' }, 'https://evil.example');
    post({ type: 'portal-payment', status: 'success' }, 'https://portal.example', {});
    await vi.advanceTimersByTimeAsync(50);
    expect(states).toEqual([{ step: 'waiting' }]);
    expect(fetchPending).not.toHaveBeenCalled();
  });

  it('abandons a payment whose popup closed without a message, then reports its state', async () => {
    const { host, popup } = makeHost();
    const { last, abandon } = run(host, [], { abandon: { status: 'canceled' } });
    popup.closed = true;
    await vi.advanceTimersByTimeAsync(100);
    expect(abandon).toHaveBeenCalledWith(ref);
    expect(last()).toEqual({ step: 'canceled' });
  });

  it('says when the portal cancelled the payment while its page was open (the subscription was cancelled)', async () => {
    const { host, post } = makeHost();
    const { last } = run(host, [{ status: 'canceled', canceledBecause: 'subscription_cancelled' }]);
    post({ type: 'portal-payment', status: 'canceled' });
    await vi.advanceTimersByTimeAsync(0);
    expect(last()).toEqual({ step: 'canceled', because: 'subscription_cancelled' });
  });

  it('reports a payment error and a payment that succeeded just before the popup closed', async () => {
    const first = makeHost();
    const errorRun = run(first.host, [{ status: 'error' }]);
    first.post({ type: 'portal-payment', status: 'error' });
    await vi.advanceTimersByTimeAsync(0);
    expect(errorRun.last()).toEqual({ step: 'error' });

    const second = makeHost();
    const lateRun = run(second.host, [], { abandon: { status: 'success' } });
    second.popup.closed = true;
    await vi.advanceTimersByTimeAsync(100);
    expect(lateRun.last()).toEqual({ step: 'success' });
  });

  it('says after two minutes that it takes too long, and stops polling when the overlay closes', async () => {
    const { host, post } = makeHost();
    const { states, fetchPending, watch } = run(host, []);
    post({ type: 'portal-payment', status: 'success' });
    await vi.advanceTimersByTimeAsync(PAYMENT_TOO_LONG_MS);
    expect(states.at(-1)).toEqual({ step: 'processing', tooLong: true });
    const calls = fetchPending.mock.calls.length;
    watch.stop();
    await vi.advanceTimersByTimeAsync(PAYMENT_POLL_MS * 5);
    expect(fetchPending.mock.calls.length).toBe(calls);
  });

  it('without a pending payment to ask, takes the page message or the closure as the outcome', async () => {
    const first = makeHost();
    const byMessage = run(first.host, [], { pendingPayment: undefined });
    first.post({ type: 'portal-payment', status: 'success' });
    expect(byMessage.last()).toEqual({ step: 'success' });

    const second = makeHost();
    const byClosure = run(second.host, [], { pendingPayment: undefined });
    second.popup.closed = true;
    await vi.advanceTimersByTimeAsync(100);
    expect(byClosure.last()).toEqual({ step: 'canceled' });
    expect(byClosure.fetchPending).not.toHaveBeenCalled();
  });
});

describe('the popup in the language of the page that opened it', () => {
  it('adds the screen language to a payment page on the portal’s own origin, relative or absolute', () => {
    expect(popupUrlInLanguage('/t/acme/api/payments/sandbox/P1?key=abc', 'en-GB', PORTAL)).toBe(
      '/t/acme/api/payments/sandbox/P1?key=abc&lang=en',
    );
    expect(
      popupUrlInLanguage('https://portal.example/api/payments/sandbox/P1?key=abc&lang=de', 'en-GB', PORTAL),
    ).toBe('https://portal.example/api/payments/sandbox/P1?key=abc&lang=en');
    expect(popupUrlInLanguage('/api/payments/sandbox/P1?key=a%2Bb', 'de-DE', PORTAL)).toBe(
      '/api/payments/sandbox/P1?key=a%2Bb&lang=de',
    );
  });

  it('leaves a provider’s page on another origin as it was given', () => {
    const stripe = 'https://checkout.provider.example/pay/cs_123#fragment';
    expect(popupUrlInLanguage(stripe, 'de-DE', PORTAL)).toBe(stripe);
  });
});
