/**
 * A local stand-in for the part of Stripe's HTTP API the portal's Stripe adapter uses, so tests point the real
 * `stripe` SDK at it (`new Stripe('sk_test_…', { host: '127.0.0.1', port, protocol: 'http' })`) instead of
 * api.stripe.com. Written from Stripe's API reference (https://docs.stripe.com/api): Checkout Sessions
 * (create, retrieve, expire), Refunds (create), Balance, Events, errors and idempotent requests; the hosted page imitates Checkout
 * with Stripe's documented test cards (https://docs.stripe.com/testing).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A form-encoded parameter after bracket parsing: `a[0][b]=1` → `{ a: [{ b: '1' }] }`. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export interface StripeStandinOptions {
  port?: number;
  webhookUrl?: string;
  webhookSecret?: string;
  deliverWebhooks?: boolean;
}

/** The fields of Stripe's `checkout.session` object the adapter reads. */
export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment' | 'setup';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  amount_subtotal: number | null;
  amount_total: number | null;
  currency: string | null;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  locale: string | null;
  /** What the customer is offered (computed, as Stripe reports it). */
  payment_method_types: string[];
  /** The filter given at creation (API versions from 2026-09-30.endive), else null. */
  allowed_payment_method_types: string[] | null;
  success_url: string;
  cancel_url: string | null;
  expires_at: number;
  url: string | null;
  payment_intent: string | null;
  setup_intent: string | null;
  livemode: boolean;
  created: number;
}

/** The fields of Stripe's `refund` object (https://docs.stripe.com/api/refunds/object) the adapter reads or a test checks. */
export interface StripeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: boolean;
  api_version: string;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: CheckoutSession };
}

export interface StripeDelivery {
  eventId: string;
  type: string;
  /** The webhook endpoint's HTTP status, null when it could not be reached. */
  status: number | null;
  error?: string;
}

export interface StripeStandin {
  url: string;
  host: string;
  port: number;
  sessions: Map<string, CheckoutSession>;
  refunds: Map<string, StripeRefund>;
  events: StripeEvent[];
  deliveries: StripeDelivery[];
  requests: Array<{ method: string; path: string }>;
  setWebhook(url: string, secret: string): void;
  setDeliverWebhooks(on: boolean): void;
  /** While on, every API request is answered 500 (an outage), with `Stripe-Should-Retry: false`. */
  setUnavailable(on: boolean): void;
  /** Pays an open session as the hosted page would (default card 4242…, PayPal when card is not offered); returns where the browser is sent. Throws on a declining test card. */
  pay(sessionId: string, card?: string): Promise<string>;
  /** An asynchronous payment method: completes unpaid, then reports the outcome, like Stripe's delayed notification methods. */
  completeAsync(sessionId: string, outcome: 'succeeded' | 'failed'): Promise<string>;
  /** A signed event that is neither recorded nor delivered, for tests that replay or reorder deliveries. */
  signedEvent(
    type: string,
    session: CheckoutSession | string,
    secret?: string,
  ): { payload: string; header: string };
  /** Resolves once every webhook queued so far has been attempted (API-triggered events are sent after the answer). */
  flushWebhooks(): Promise<void>;
  close(): Promise<void>;
}

type LineItem = { name: string; unitAmount: number; quantity: number; currency: string };
/** Stripe's error object, answered as `{ error: … }` (https://docs.stripe.com/api/errors). */
type ErrorBody = { type: string; message: string; code?: string; param?: string };

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
  }
}
const apiError = (status: number, message: string, extra: Partial<ErrorBody> = {}) =>
  new ApiError(status, { type: 'invalid_request_error', message, ...extra });
const invalid = (message: string, param?: string, code?: string) =>
  apiError(400, message, { ...(code && { code }), ...(param && { param }) });
const missing = (param: string) => invalid(`Missing required param: ${param}.`, param, 'parameter_missing');
function ensure(ok: unknown, message: string, param?: string, code?: string): asserts ok {
  if (!ok) throw invalid(message, param, code);
}

/** Parses Stripe's form encoding (the SDK writes `key[child]` and indexed arrays `key[0]`), numeric keys → arrays. */
export function parseStripeForm(body: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match) continue;
    const path = [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])];
    let node: FormObject = root;
    path.forEach((segment, i) => {
      const name = segment === '' ? String(Object.keys(node).length) : segment;
      if (i === path.length - 1) node[name] = value;
      else node = (typeof node[name] === 'object' ? node[name] : (node[name] = {})) as FormObject;
    });
  }
  const arrays = (value: FormValue): FormValue => {
    if (typeof value === 'string' || Array.isArray(value)) return value;
    const keys = Object.keys(value);
    const converted = Object.fromEntries(keys.map((k) => [k, arrays(value[k])]));
    if (keys.length === 0 || !keys.every((k) => /^\d+$/.test(k))) return converted;
    return keys.sort((a, b) => Number(a) - Number(b)).map((k) => converted[k]);
  };
  return arrays(root) as FormObject;
}

const str = (v: FormValue | undefined) => (typeof v === 'string' ? v : undefined);
const obj = (v: FormValue | undefined) => (v && typeof v === 'object' && !Array.isArray(v) ? v : undefined);
const count = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) && +v > 0 ? +v : undefined);
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const randomId = (prefix: string, length = 24) =>
  prefix + [...randomBytes(length)].map((b) => ALPHABET[b % 62]).join('');
const now = () => Math.floor(Date.now() / 1000);
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Checkout's `locale` values as the API reference lists them (anything else is rejected, e.g. `de-DE`). */
const LOCALES = new Set(
  (
    'auto bg cs da de el en en-GB es es-419 et fi fil fr fr-CA hr hu id it ja ko lt lv ms mt nb nl pl pt pt-BR ' +
    'ro ru sk sl sv th tr vi zh zh-HK zh-TW'
  ).split(' '),
);
/** What the stand-in understands; like Stripe, it refuses any other parameter rather than ignore it. */
const CREATE_PARAMS = new Set(
  (
    'mode line_items currency client_reference_id metadata success_url cancel_url locale expires_at ' +
    'customer_email expand'
  ).split(' '),
);
/** What the stand-in's Refunds create understands (https://docs.stripe.com/api/refunds/create). */
const REFUND_PARAMS = new Set(['payment_intent', 'amount', 'reason', 'metadata', 'expand']);
const REFUND_REASONS = new Set(['duplicate', 'fraudulent', 'requested_by_customer']);

/** Declining test cards (https://docs.stripe.com/testing#declined-payments): decline code and Checkout's message. */
const DECLINES: Record<string, [string, string]> = {
  '4000000000000002': ['card_declined', 'Your card was declined.'],
  '4000000000009995': ['insufficient_funds', 'Your card has insufficient funds.'],
  '4000000000000069': ['expired_card', 'Your card has expired.'],
  '4000000000000127': ['incorrect_cvc', "Your card's security code is incorrect."],
  '4000000000000119': ['processing_error', 'An error occurred while processing your card.'],
};
const LUHN_DOUBLED = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];
const luhn = (digits: string) =>
  [...digits].reverse().reduce((sum, d, i) => sum + (i % 2 ? LUHN_DOUBLED[+d] : +d), 0) % 10 === 0;

function checkUrl(value: string | undefined, param: string): string | null {
  if (value === undefined || value === '') return null;
  const protocol = URL.canParse(value) ? new URL(value).protocol : '';
  ensure(protocol === 'http:' || protocol === 'https:', 'Not a valid URL', param, 'url_invalid');
  return value;
}

/** Validates create parameters the way the API reference documents them and builds the session. */
function buildSession(params: FormObject, origin: string, livemode: boolean, apiVersion: string) {
  // API version 2026-09-30.endive replaced `payment_method_types` by `allowed_payment_method_types`
  // (https://docs.stripe.com/changelog/endive/2026-09-30/remove-payment-method-types-checkout-sessions).
  const endive = apiVersion >= '2026-09-30';
  const methodsParam = endive ? 'allowed_payment_method_types' : 'payment_method_types';
  if (endive && params.payment_method_types !== undefined) {
    const message = `payment_method_types is not supported on API version ${apiVersion}: use allowed_payment_method_types.`;
    throw invalid(message, 'payment_method_types', 'payment_method_types_no_longer_supported');
  }
  for (const key of Object.keys(params)) {
    const known = CREATE_PARAMS.has(key) || key === methodsParam;
    ensure(known, `Received unknown parameter: ${key}`, key, 'parameter_unknown');
  }
  const mode = str(params.mode);
  if (!mode) throw missing('mode');
  ensure(mode === 'payment' || mode === 'setup', `Invalid mode: ${mode} (stand-in: payment, setup)`, 'mode');
  // Without a list, Stripe computes the methods from the Dashboard's settings; the stand-in's are card only.
  const methods = params[methodsParam] ?? ['card'];
  ensure(Array.isArray(methods) && methods.length > 0, 'Invalid array', methodsParam);
  methods.forEach((m, i) => {
    const param = `${methodsParam}[${i}]`;
    ensure(m === 'card' || m === 'paypal', `Invalid ${param}: the stand-in offers card, paypal`, param);
  });
  const items: LineItem[] = [];
  const lineItems = params.line_items;
  if (mode === 'payment') {
    if (!Array.isArray(lineItems) || lineItems.length === 0) throw missing('line_items');
    lineItems.forEach((raw, i) => {
      const at = (p: string) => `line_items[${i}]${p}`;
      const price = obj(obj(raw)?.price_data);
      if (!price) throw missing(at('[price_data]'));
      const currency = str(price.currency)?.toLowerCase() ?? '';
      ensure(/^[a-z]{3}$/.test(currency), `Invalid currency: ${currency}`, at('[price_data][currency]'));
      ensure(
        !items.length || currency === items[0].currency,
        'Mixed currencies',
        at('[price_data][currency]'),
      );
      if (price.unit_amount === undefined) throw missing(at('[price_data][unit_amount]'));
      const unitAmount = count(str(price.unit_amount));
      ensure(unitAmount, 'Invalid positive integer', at('[price_data][unit_amount]'));
      const name = str(obj(price.product_data)?.name);
      if (!name) throw missing(at('[price_data][product_data][name]'));
      if (obj(raw)?.quantity === undefined) throw missing(at('[quantity]'));
      const quantity = count(str(obj(raw)?.quantity));
      ensure(quantity, 'Invalid positive integer', at('[quantity]'));
      items.push({ name, unitAmount, quantity, currency });
    });
  } else ensure(lineItems === undefined, 'You can not pass `line_items` in `setup` mode.', 'line_items');
  const currency = mode === 'payment' ? items[0].currency : (str(params.currency)?.toLowerCase() ?? null);
  ensure(currency === null || /^[a-z]{3}$/.test(currency), `Invalid currency: ${currency}`, 'currency');
  // "Required in `setup` mode when `allowed_payment_method_types` is not set."
  if (endive && currency === null && params[methodsParam] === undefined) throw missing('currency');
  const locale = str(params.locale) ?? null;
  ensure(locale === null || LOCALES.has(locale), `Invalid locale: ${locale}`, 'locale');
  const created = now();
  const expiresAt = params.expires_at === undefined ? created + 86400 : count(str(params.expires_at));
  // "It can be anywhere from 30 minutes to 24 hours after Checkout Session creation" (a minute of leeway here).
  const expiresOk = expiresAt && expiresAt >= created + 1740 && expiresAt <= created + 86400;
  ensure(expiresOk, 'The `expires_at` timestamp must be 30 minutes to 24 hours from creation.', 'expires_at');
  const metadata = obj(params.metadata ?? {});
  ensure(metadata, 'Invalid object', 'metadata');
  for (const [key, value] of Object.entries(metadata)) {
    const ok = typeof value === 'string' && value.length <= 500 && key.length <= 40;
    ensure(ok, 'Metadata keys are at most 40 characters, values strings of at most 500', `metadata[${key}]`);
  }
  const email = str(params.customer_email) ?? null;
  const emailOk = email === null || /^[^@\s]+@[^@\s]+$/.test(email);
  ensure(emailOk, `Invalid email address: ${email}`, 'customer_email', 'email_invalid');
  const reference = str(params.client_reference_id) ?? null;
  ensure((reference?.length ?? 0) <= 200, 'Invalid string: too long', 'client_reference_id');
  if (!str(params.success_url)) throw missing('success_url');
  const total = mode === 'payment' ? items.reduce((sum, i) => sum + i.unitAmount * i.quantity, 0) : null;
  const id = randomId('cs_test_', 40);
  const session: CheckoutSession = {
    id,
    object: 'checkout.session',
    mode,
    status: 'open',
    payment_status: mode === 'payment' ? 'unpaid' : 'no_payment_required',
    amount_subtotal: total,
    amount_total: total,
    currency,
    client_reference_id: reference,
    customer_email: email,
    metadata: metadata as Record<string, string>,
    locale,
    payment_method_types: methods as string[],
    allowed_payment_method_types: endive && params[methodsParam] ? (methods as string[]) : null,
    success_url: checkUrl(str(params.success_url), 'success_url')!,
    cancel_url: checkUrl(str(params.cancel_url), 'cancel_url'),
    expires_at: expiresAt,
    url: `${origin}/c/pay/${id}`,
    payment_intent: null,
    setup_intent: null,
    livemode,
    created,
  };
  return { session, items };
}

export async function startStripeStandin(options: StripeStandinOptions = {}): Promise<StripeStandin> {
  const host = '127.0.0.1';
  let origin = '';
  let webhook = {
    url: options.webhookUrl,
    secret: options.webhookSecret,
    on: options.deliverWebhooks !== false,
  };
  const sessions = new Map<string, CheckoutSession>();
  const refunds = new Map<string, StripeRefund>();
  let unavailable = false;
  const lineItems = new Map<string, LineItem[]>();
  const events: StripeEvent[] = [];
  const deliveries: StripeDelivery[] = [];
  const requests: Array<{ method: string; path: string }> = [];
  const idempotent = new Map<string, { request: string; status: number; body: unknown }>();
  let queue: Promise<void> = Promise.resolve();

  const makeEvent = (type: string, session: CheckoutSession): StripeEvent => ({
    id: randomId('evt_'),
    object: 'event',
    type,
    created: now(),
    livemode: session.livemode,
    api_version: Stripe.API_VERSION,
    pending_webhooks: webhook.on && webhook.url ? 1 : 0,
    request: { id: null, idempotency_key: null },
    data: { object: structuredClone(session) },
  });
  const sign = (event: StripeEvent, secret: string) => {
    const payload = JSON.stringify(event, null, 2);
    return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
  };
  /** Records the event and queues its delivery; deliveries run one after another, in the order of the events. */
  const emit = (type: string, session: CheckoutSession): Promise<void> => {
    const event = makeEvent(type, session);
    events.push(event);
    if (!webhook.on || !webhook.url || !webhook.secret) return queue;
    const { url, secret } = webhook;
    queue = queue.then(async () => {
      const { payload, header } = sign(event, secret);
      try {
        const response = await fetch(url, {
          method: 'POST',
          body: payload,
          signal: AbortSignal.timeout(10_000),
          headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        });
        await response.arrayBuffer();
        deliveries.push({ eventId: event.id, type, status: response.status });
      } catch (error) {
        deliveries.push({ eventId: event.id, type, status: null, error: String(error) });
      }
    });
    return queue;
  };

  const openSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`No checkout session ${id}`);
    if (session.status !== 'open') throw new Error(`Checkout session ${id} is ${session.status}`);
    return session;
  };
  const successUrl = (s: CheckoutSession) => s.success_url.replaceAll('{CHECKOUT_SESSION_ID}', s.id);
  const complete = async (session: CheckoutSession, paid: boolean) => {
    Object.assign(session, { status: 'complete', url: null });
    if (session.mode === 'setup') session.setup_intent = randomId('seti_');
    else
      Object.assign(session, { payment_intent: randomId('pi_'), payment_status: paid ? 'paid' : 'unpaid' });
    await emit('checkout.session.completed', session);
    return successUrl(session);
  };
  /** The hosted page's outcome for a card number: a decline [code, message] or null for success. */
  const cardOutcome = (card: string): [string, string] | null => {
    const digits = card.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(digits) || !luhn(digits))
      return ['invalid_number', 'Your card number is invalid.'];
    return DECLINES[digits] ?? null;
  };

  /** The hosted page: labelled fields and buttons a browser test finds by their names. */
  const page = (session: CheckoutSession, error?: string) => {
    const money = (amount: number, currency: string) =>
      new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amount / 100);
    const button = (action: string, text: string) =>
      `<button type="submit" name="action" value="${action}">${text}</button>`;
    const field = (id: string, label: string, name: string, value = '') =>
      `<p><label for="${id}">${label}</label> <input id="${id}" name="${name}" value="${value}"></p>`;
    const card = session.payment_method_types.includes('card');
    const lines = (lineItems.get(session.id) ?? []).map(
      (i) =>
        `<li>${escapeHtml(i.name)} × ${i.quantity}: ${money(i.unitAmount * i.quantity, i.currency)}</li>`,
    );
    const open = [
      `<h1>${session.mode === 'setup' ? 'Save a payment method' : `Pay ${money(session.amount_total!, session.currency!)}`}</h1>`,
      `<ul>${lines.join('')}</ul>`,
      error ? `<p role="alert">${escapeHtml(error)}</p>` : '',
      '<form method="post">',
      ...(card
        ? [
            field('card-number', 'Card number', 'cardNumber'),
            field('card-expiry', 'Expiry date', 'cardExpiry', '12 / 34'),
            field('card-cvc', 'CVC', 'cardCvc', '123'),
            button('card', session.mode === 'setup' ? 'Save card' : 'Pay'),
          ]
        : []),
      session.payment_method_types.includes('paypal')
        ? button('paypal', card ? 'Pay with PayPal' : 'Approve')
        : '',
      session.cancel_url ? button('cancel', 'Cancel') : '',
      '</form>',
    ];
    const closed = `<h1>This Checkout Session ${session.status === 'expired' ? 'has expired' : 'is complete'}.</h1>`;
    const body = session.status === 'open' ? open.join('\n') : closed;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout stand-in</title></head><body><main>${body}</main></body></html>`;
  };

  /** A refund of a paid session's PaymentIntent, at most what is left of it. */
  const createRefund = (body: string): StripeRefund => {
    const params = parseStripeForm(body);
    for (const key of Object.keys(params))
      ensure(REFUND_PARAMS.has(key), `Received unknown parameter: ${key}`, key, 'parameter_unknown');
    const intent = str(params.payment_intent);
    if (!intent) throw missing('payment_intent');
    const session = [...sessions.values()].find((s) => s.payment_intent === intent);
    if (!session)
      throw apiError(404, `No such payment_intent: '${intent}'`, {
        code: 'resource_missing',
        param: 'payment_intent',
      });
    ensure(session.payment_status === 'paid', 'This PaymentIntent has no successful charge to refund.');
    const refunded = [...refunds.values()]
      .filter((r) => r.payment_intent === intent && r.status !== 'failed' && r.status !== 'canceled')
      .reduce((sum, r) => sum + r.amount, 0);
    const left = (session.amount_total ?? 0) - refunded;
    ensure(
      left > 0,
      `Charge for PaymentIntent ${intent} has already been refunded.`,
      undefined,
      'charge_already_refunded',
    );
    const amount = params.amount === undefined ? left : count(str(params.amount));
    ensure(amount, 'Invalid positive integer', 'amount');
    ensure(
      amount <= left,
      `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
      'amount',
      'amount_too_large',
    );
    const reason = str(params.reason) ?? null;
    ensure(reason === null || REFUND_REASONS.has(reason), `Invalid reason: ${reason}`, 'reason');
    const metadata = obj(params.metadata ?? {});
    ensure(metadata, 'Invalid object', 'metadata');
    const refund: StripeRefund = {
      id: randomId('re_'),
      object: 'refund',
      amount,
      currency: session.currency!,
      payment_intent: intent,
      status: 'succeeded',
      reason,
      metadata: metadata as Record<string, string>,
      created: now(),
    };
    refunds.set(refund.id, refund);
    return refund;
  };

  const api = async (method: string, path: string, body: string, req: IncomingMessage) => {
    if (unavailable) throw new Error('the stand-in is unavailable (setUnavailable)');
    const key = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!key) throw apiError(401, 'You did not provide an API key.');
    if (!/^(sk_test_|sk_live_|rk_)/.test(key))
      throw apiError(401, `Invalid API Key provided: ${key.slice(0, 8)}***`);
    const livemode = /^(sk|rk)_live_/.test(key);
    const sessionId = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    const id = sessionId && decodeURIComponent(sessionId[1]);
    const session = id && sessions.get(id);
    if (id && !session)
      throw apiError(404, `No such checkout.session: '${id}'`, { code: 'resource_missing', param: 'id' });
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const version = str(req.headers['stripe-version']) ?? Stripe.API_VERSION;
      const built = buildSession(parseStripeForm(body), origin, livemode, version);
      sessions.set(built.session.id, built.session);
      lineItems.set(built.session.id, built.items);
      return { status: 200, body: built.session };
    }
    if (method === 'GET' && session && !sessionId?.[2]) return { status: 200, body: session };
    if (method === 'POST' && session && sessionId?.[2]) {
      if (session.status !== 'open')
        throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired.`);
      Object.assign(session, { status: 'expired', url: null });
      void emit('checkout.session.expired', session); // Stripe sends it after answering; flushWebhooks() awaits it.
      return { status: 200, body: session };
    }
    if (method === 'POST' && path === '/v1/refunds') return { status: 200, body: createRefund(body) };
    if (method === 'GET' && path === '/v1/balance') {
      const zero = [{ amount: 0, currency: 'eur', source_types: { card: 0 } }];
      return { status: 200, body: { object: 'balance', available: zero, pending: zero, livemode } };
    }
    throw apiError(404, `Unrecognized request URL (${method}: ${path}).`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const { pathname } = new URL(req.url ?? '/', origin);
    requests.push({ method, path: pathname });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const pay = /^\/c\/pay\/([^/]+)$/.exec(pathname);
    if (pay) {
      const session = sessions.get(decodeURIComponent(pay[1]));
      const html = (status: number, text: string) =>
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(text);
      if (!session)
        return html(404, '<!doctype html><title>Not found</title><h1>This page could not be found.</h1>');
      if (method !== 'POST' || session.status !== 'open')
        return html(method === 'POST' ? 409 : 200, page(session));
      const form = new URLSearchParams(body);
      const action = form.get('action');
      if (action === 'cancel' && session.cancel_url)
        return res.writeHead(303, { location: session.cancel_url }).end();
      if (action === 'paypal' && session.payment_method_types.includes('paypal')) {
        return res.writeHead(303, { location: await complete(session, true) }).end();
      }
      if (action !== 'card' || !session.payment_method_types.includes('card'))
        return html(400, page(session));
      const decline = cardOutcome(form.get('cardNumber') ?? '');
      // A declined card leaves the session open; Checkout shows the reason and lets the customer try again.
      if (decline) return html(402, page(session, decline[1]));
      return res.writeHead(303, { location: await complete(session, true) }).end();
    }
    const json = (status: number, payload: unknown, extra: Record<string, string> = {}) => {
      const headers = { 'content-type': 'application/json', 'request-id': randomId('req_', 14), ...extra };
      res.writeHead(status, headers).end(JSON.stringify(payload, null, 2));
    };
    // Idempotent requests: the same key replays the saved answer; with other parameters it is an error.
    const idemKey = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const fingerprint = `${method} ${pathname} ${body}`;
    const saved = typeof idemKey === 'string' ? idempotent.get(idemKey) : undefined;
    if (saved && saved.request !== fingerprint) {
      const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`;
      return json(400, { error: { type: 'idempotency_error', message } });
    }
    if (saved) return json(saved.status, saved.body, { 'idempotent-replayed': 'true' });
    try {
      const answer = await api(method, pathname, body, req);
      if (typeof idemKey === 'string') idempotent.set(idemKey, { request: fingerprint, ...answer });
      json(answer.status, answer.body);
    } catch (error) {
      if (error instanceof ApiError) return json(error.status, { error: error.body });
      // Tells the SDK not to retry: a stand-in bug does not go away on the second attempt.
      json(500, { error: { type: 'api_error', message: String(error) } }, { 'stripe-should-retry': 'false' });
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://${host}:${port}`;

  return {
    url: origin,
    host,
    port,
    sessions,
    refunds,
    events,
    deliveries,
    requests,
    setUnavailable: (on) => void (unavailable = on),
    setWebhook: (url, secret) => void (webhook = { ...webhook, url, secret }),
    setDeliverWebhooks: (on) => void (webhook = { ...webhook, on }),
    pay: async (sessionId, card) => {
      const session = openSession(sessionId);
      // Without a card to use, a PayPal-only session is approved instead.
      if (card === undefined && !session.payment_method_types.includes('card'))
        return complete(session, true);
      if (!session.payment_method_types.includes('card'))
        throw new Error(`Session ${sessionId} takes no cards`);
      const decline = cardOutcome(card ?? '4242424242424242');
      if (decline) throw new Error(`The card was declined: ${decline[0]}`);
      return complete(session, true);
    },
    completeAsync: async (sessionId, outcome) => {
      const session = openSession(sessionId);
      if (session.mode !== 'payment')
        throw new Error('Only payment-mode sessions have an asynchronous payment');
      const redirect = await complete(session, false);
      if (outcome === 'succeeded') session.payment_status = 'paid';
      await emit(`checkout.session.async_payment_${outcome}`, session);
      return redirect;
    },
    signedEvent: (type, session, secret = webhook.secret) => {
      if (!secret) throw new Error('No webhook secret: call setWebhook() or pass one');
      const snapshot = typeof session === 'string' ? sessions.get(session) : session;
      if (!snapshot) throw new Error(`No checkout session ${String(session)}`);
      return sign(makeEvent(type, snapshot), secret);
    },
    flushWebhooks: () => queue,
    close: async () => {
      await queue;
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
