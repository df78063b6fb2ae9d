/**
 * A local stand-in for the part of Mollie's API v2 the portal's Mollie adapter uses, so tests point the real
 * `@mollie/api-client` SDK at it instead of api.mollie.com. Written from Mollie's API reference
 * (https://docs.mollie.com/reference): Payments API (create, get, cancel), Refunds API (create, list), Customers API (create, get, list
 * mandates), Methods API (list), error responses and webhooks (https://docs.mollie.com/reference/webhooks: a POST
 * carrying only `id`). The hosted page imitates Mollie's test-mode checkout, where the tester picks the outcome.
 *
 * The SDK (4.x) always sends its requests through an `https.Agent` holding its own bundle of root certificates, so it
 * cannot call a plain-http endpoint nor trust a local certificate: the API is therefore also served over TLS
 * (`apiEndpoint`), with a certificate made at start, and the client process must skip certificate verification
 * (`NODE_TLS_REJECT_UNAUTHORIZED=0`, e.g. `vi.stubEnv`). `url` (plain http) serves the checkout page and the API.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type MolliePaymentStatus =
  'open' | 'pending' | 'authorized' | 'paid' | 'canceled' | 'expired' | 'failed';
/** The outcomes Mollie's test-mode checkout offers. */
export type MollieOutcome = 'paid' | 'failed' | 'canceled' | 'expired';
type Link = { href: string; type: string };

export interface MolliePayment {
  resource: 'payment';
  id: string;
  mode: 'test' | 'live';
  createdAt: string;
  amount: { currency: string; value: string };
  description: string;
  method: string | null;
  metadata: unknown;
  status: MolliePaymentStatus;
  isCancelable: boolean;
  expiresAt?: string;
  paidAt?: string;
  canceledAt?: string;
  failedAt?: string;
  expiredAt?: string;
  locale: string | null;
  profileId: string;
  sequenceType: 'oneoff' | 'first' | 'recurring';
  customerId?: string;
  mandateId?: string;
  redirectUrl: string | null;
  cancelUrl?: string;
  webhookUrl: string | null;
  details?: Record<string, string>;
  _links: Record<string, Link>;
}

/** Mollie's refund resource (https://docs.mollie.com/reference/get-refund), as far as the adapter reads it. */
export interface MollieRefund {
  resource: 'refund';
  id: string;
  mode: 'test' | 'live';
  amount: { currency: string; value: string };
  description: string;
  metadata: unknown;
  status: 'queued' | 'pending' | 'processing' | 'refunded' | 'failed' | 'canceled';
  paymentId: string;
  createdAt: string;
  _links: Record<string, Link>;
}

export interface MollieCustomer {
  resource: 'customer';
  id: string;
  mode: 'test' | 'live';
  name: string | null;
  email: string | null;
  locale: string | null;
  metadata: unknown;
  createdAt: string;
  _links: Record<string, Link>;
}

export interface MollieMandate {
  resource: 'mandate';
  id: string;
  mode: 'test' | 'live';
  status: 'valid';
  method: string;
  details: Record<string, string>;
  mandateReference: null;
  signatureDate: string;
  customerId: string;
  createdAt: string;
  _links: Record<string, Link>;
}

export interface MollieDelivery {
  paymentId: string;
  paymentStatus: MolliePaymentStatus;
  /** The webhook endpoint's HTTP status, null when it could not be reached. */
  status: number | null;
  error?: string;
}

export interface MollieStandin {
  /** Plain-http origin: the checkout page (`_links.checkout`) and the API under `/v2/`. */
  url: string;
  /** The API over TLS, for the SDK's `apiEndpoint` (see the note at the top of this file). */
  apiEndpoint: string;
  /** The PEM certificate `apiEndpoint` presents, for clients that can be given a `ca`. */
  certificate: string;
  payments: Map<string, MolliePayment>;
  refunds: Map<string, MollieRefund>;
  customers: Map<string, MollieCustomer>;
  mandates: Map<string, MollieMandate>;
  deliveries: MollieDelivery[];
  requests: Array<{ method: string; path: string }>;
  setDeliverWebhooks(on: boolean): void;
  /** While on, every API request is answered 503 (an outage). */
  setUnavailable(on: boolean): void;
  /** Settles an open payment as the checkout page would (webhook included); returns where the browser is sent. */
  settle(paymentId: string, status: MollieOutcome): Promise<string | null>;
  /** Changes the status without calling the webhook, as when Mollie's webhook call is lost. */
  setStatus(paymentId: string, status: MolliePaymentStatus): void;
  close(): Promise<void>;
}

class MollieError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly field?: string,
  ) {
    super(detail);
  }
}
const unprocessable = (detail: string, field?: string) =>
  new MollieError(422, 'Unprocessable Entity', detail, field);
function ensure(ok: unknown, detail: string, field?: string): asserts ok {
  if (!ok) throw unprocessable(detail, field);
}
const DOCUMENTATION: Link = { href: 'https://docs.mollie.com/overview/handling-errors', type: 'text/html' };
/** Mollie's accepted `locale` values (Create payment reference). */
const LOCALES = new Set(
  (
    'en_US en_GB nl_NL nl_BE de_DE de_AT de_CH fr_FR fr_BE es_ES ca_ES pt_PT it_IT nb_NO sv_SE fi_FI da_DK is_IS ' +
    'hu_HU pl_PL lv_LV lt_LT'
  ).split(' '),
);
const METHODS = [
  { id: 'creditcard', description: 'Card' },
  { id: 'paypal', description: 'PayPal' },
];
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const randomId = (prefix: string) => prefix + [...randomBytes(10)].map((b) => ALPHABET[b % 62]).join('');
/** Mollie writes ISO 8601 with an offset and no fraction: 2024-03-20T09:13:37+00:00. */
const timestamp = (offsetMs = 0) =>
  new Date(Date.now() + offsetMs).toISOString().replace(/\.\d{3}Z$/, '+00:00');
const isUrl = (v: unknown) =>
  typeof v === 'string' && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol);
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** DER encoding (ITU-T X.690), just enough for the certificate below. */
function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  return Buffer.concat([Buffer.from([tag, ...(n < 0x80 ? [n] : [0x82, n >> 8, n & 0xff])]), body]);
}
function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return der(0x06, Buffer.from(bytes));
}
/** A throwaway self-signed X.509 certificate for 127.0.0.1 (RFC 5280), made at start so no key sits in the repository. */
function selfSignedCertificate() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const seq = (...parts: Buffer[]) => der(0x30, ...parts);
  const utcTime = (ms: number) =>
    der(0x17, Buffer.from(`${new Date(ms).toISOString().replace(/[-:T]/g, '').slice(2, 14)}Z`));
  const name = seq(der(0x31, seq(oid('2.5.4.3'), der(0x0c, Buffer.from('127.0.0.1')))));
  const ecdsaWithSha256 = seq(oid('1.2.840.10045.4.3.2'));
  const altNames = seq(der(0x87, Buffer.from([127, 0, 0, 1])), der(0x82, Buffer.from('localhost')));
  const serial = randomBytes(8);
  serial[0] = (serial[0] & 0x7f) | 0x01;
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, serial),
    ecdsaWithSha256,
    name,
    seq(utcTime(Date.now() - 86_400_000), utcTime(Date.now() + 365 * 86_400_000)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der(0xa3, seq(seq(oid('2.5.29.17'), der(0x04, altNames)))),
  );
  const certificate = seq(tbs, ecdsaWithSha256, der(0x03, Buffer.from([0]), sign('sha256', tbs, privateKey)));
  const base64 = certificate
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`,
  };
}

export async function startMollieStandin(options: { port?: number } = {}): Promise<MollieStandin> {
  const payments = new Map<string, MolliePayment>();
  const refunds = new Map<string, MollieRefund>();
  let unavailable = false;
  const customers = new Map<string, MollieCustomer>();
  const mandates = new Map<string, MollieMandate>();
  const deliveries: MollieDelivery[] = [];
  const requests: Array<{ method: string; path: string }> = [];
  let deliverWebhooks = true;
  const idempotent = new Map<string, { status: number; text: string }>();
  let queue: Promise<void> = Promise.resolve();
  let origin = '';
  let apiEndpoint = '';
  const link = (href: string, type = 'application/hal+json'): Link => ({ href, type });

  const createPayment = (input: Record<string, unknown>, mode: 'test' | 'live'): MolliePayment => {
    const amount = input.amount as { currency?: unknown; value?: unknown } | undefined;
    ensure(amount && typeof amount === 'object', 'The amount is required', 'amount');
    const { currency, value } = amount;
    const currencyOk = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency);
    ensure(currencyOk, 'The currency is invalid', 'amount.currency');
    const twoDecimals = typeof value === 'string' && /^\d+\.\d{2}$/.test(value);
    ensure(twoDecimals, 'The amount value must be a string with two decimals, e.g. "10.00"', 'amount.value');
    const { description, sequenceType = 'oneoff', customerId, locale = null, metadata = null } = input;
    const described = typeof description === 'string' && description.trim() !== '';
    ensure(described, 'The description is required', 'description');
    ensure(description.length <= 255, 'The description is too long', 'description');
    const sequenceOk = sequenceType === 'oneoff' || sequenceType === 'first' || sequenceType === 'recurring';
    ensure(sequenceOk, 'The sequence type is invalid', 'sequenceType');
    const methods = input.method == null ? [] : [input.method].flat();
    const known = methods.every((m) => METHODS.some((method) => method.id === m));
    ensure(known, 'The payment method is invalid or not activated (stand-in: creditcard, paypal)', 'method');
    const method = methods.length === 1 ? (methods[0] as string) : null;
    // A zero amount only verifies a card for a mandate: a first payment by credit card.
    const zeroOk = method === 'creditcard' && sequenceType === 'first';
    ensure(value !== '0.00' || zeroOk, 'The amount is lower than the minimum', 'amount.value');
    const redirectOk = sequenceType === 'recurring' || input.redirectUrl !== undefined;
    ensure(redirectOk, 'The redirect URL is required', 'redirectUrl');
    for (const field of ['redirectUrl', 'cancelUrl', 'webhookUrl']) {
      ensure(input[field] == null || isUrl(input[field]), `The ${field} is not a valid URL`, field);
    }
    ensure(locale === null || LOCALES.has(locale as string), 'The locale is invalid', 'locale');
    ensure(JSON.stringify(metadata).length <= 1024, 'The metadata is larger than 1024 bytes', 'metadata');
    const customerOk = customerId === undefined || customers.has(customerId as string);
    ensure(customerOk, `No customer exists with token ${customerId}.`, 'customerId');
    ensure(
      customerId !== undefined || sequenceType === 'oneoff',
      `A ${sequenceType} payment needs a customerId`,
      'customerId',
    );
    const hasMandate = [...mandates.values()].some((m) => m.customerId === customerId);
    ensure(sequenceType !== 'recurring' || hasMandate, 'The customer has no valid mandate', 'customerId');
    const id = randomId('tr_');
    // Recurring payments are charged without the customer, so they have no checkout and start pending.
    const open = sequenceType !== 'recurring';
    return {
      resource: 'payment',
      id,
      mode,
      createdAt: timestamp(),
      amount: { currency, value },
      description,
      method,
      metadata,
      status: open ? 'open' : 'pending',
      isCancelable: open,
      ...(open && { expiresAt: timestamp(15 * 60_000) }),
      locale: locale as string | null,
      profileId: 'pfl_standin',
      sequenceType,
      ...(customerId !== undefined && { customerId: customerId as string }),
      redirectUrl: (input.redirectUrl as string | undefined) ?? null,
      ...(typeof input.cancelUrl === 'string' && { cancelUrl: input.cancelUrl }),
      webhookUrl: (input.webhookUrl as string | undefined) ?? null,
      _links: {
        self: link(`${apiEndpoint}payments/${id}`),
        ...(open && { checkout: link(`${origin}/checkout/${id}`, 'text/html') }),
        documentation: link('https://docs.mollie.com/reference/create-payment', 'text/html'),
      },
    };
  };

  const createCustomer = (input: Record<string, unknown>, mode: 'test' | 'live'): MollieCustomer => {
    const { name = null, email = null, locale = null, metadata = null } = input;
    const emailOk = email === null || /^[^@\s]+@[^@\s]+$/.test(String(email));
    ensure(emailOk, 'The email address is invalid', 'email');
    ensure(locale === null || LOCALES.has(locale as string), 'The locale is invalid', 'locale');
    const id = randomId('cst_');
    const _links = { self: link(`${apiEndpoint}customers/${id}`) };
    const strings = {
      name: name as string | null,
      email: email as string | null,
      locale: locale as string | null,
    };
    return { resource: 'customer', id, mode, ...strings, metadata, createdAt: timestamp(), _links };
  };

  const setStatus = (payment: MolliePayment, status: MolliePaymentStatus) => {
    payment.status = status;
    payment.isCancelable = status === 'open';
    if (status === 'open') return;
    delete payment.expiresAt; // "omitted if the payment can no longer be completed"
    delete payment._links.checkout;
    const stamp = {
      paid: 'paidAt',
      failed: 'failedAt',
      canceled: 'canceledAt',
      expired: 'expiredAt',
    } as const;
    if (status in stamp) payment[stamp[status as MollieOutcome]] = timestamp();
    if (status !== 'paid') return;
    payment.method ??= 'creditcard';
    payment.details =
      payment.method === 'paypal'
        ? { consumerName: 'Test Tester', consumerAccount: 'tester@example.com' }
        : { cardHolder: 'T. Tester', cardNumber: '4242', cardLabel: 'Visa', cardCountryCode: 'NL' };
    // A paid first payment leaves a mandate for later recurring payments.
    if (payment.sequenceType === 'first' && payment.customerId && !payment.mandateId) {
      const id = randomId('mdt_');
      const card = {
        cardHolder: 'T. Tester',
        cardNumber: '4242',
        cardLabel: 'Visa',
        cardExpiryDate: '2030-12-31',
      };
      mandates.set(id, {
        resource: 'mandate',
        id,
        mode: payment.mode,
        status: 'valid',
        method: payment.method,
        details: payment.method === 'paypal' ? payment.details : card,
        mandateReference: null,
        signatureDate: timestamp().slice(0, 10),
        customerId: payment.customerId,
        createdAt: timestamp(),
        _links: { self: link(`${apiEndpoint}customers/${payment.customerId}/mandates/${id}`) },
      });
      payment.mandateId = id;
    }
  };

  /** As on Mollie's test page: the status changes, the webhook hears the id, the browser goes back to the shop. */
  const settle = async (payment: MolliePayment, status: MollieOutcome) => {
    if (payment.status !== 'open') throw new Error(`Payment ${payment.id} is ${payment.status}`);
    setStatus(payment, status);
    const { id, webhookUrl } = payment;
    if (deliverWebhooks && webhookUrl) {
      queue = queue.then(async () => {
        try {
          const response = await fetch(webhookUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ id }).toString(),
            signal: AbortSignal.timeout(10_000),
          });
          await response.arrayBuffer();
          deliveries.push({ paymentId: id, paymentStatus: status, status: response.status });
        } catch (error) {
          deliveries.push({ paymentId: id, paymentStatus: status, status: null, error: String(error) });
        }
      });
      await queue;
    }
    return status === 'canceled' ? (payment.cancelUrl ?? payment.redirectUrl) : payment.redirectUrl;
  };

  /** A refund of a paid payment, at most what is left of it (amountRemaining). */
  const createRefund = (payment: MolliePayment, input: Record<string, unknown>): MollieRefund => {
    ensure(
      payment.status === 'paid',
      `The payment ${payment.id} is ${payment.status} and cannot be refunded`,
    );
    const amount = input.amount as { currency?: unknown; value?: unknown } | undefined;
    ensure(amount && typeof amount === 'object', 'The amount is required', 'amount');
    ensure(
      amount.currency === payment.amount.currency,
      'The currency differs from the payment',
      'amount.currency',
    );
    const twoDecimals = typeof amount.value === 'string' && /^\d+\.\d{2}$/.test(amount.value);
    ensure(twoDecimals, 'The amount value must be a string with two decimals, e.g. "10.00"', 'amount.value');
    const cents = (value: string) => Math.round(Number(value) * 100);
    const refunded = [...refunds.values()]
      .filter((r) => r.paymentId === payment.id && r.status !== 'failed' && r.status !== 'canceled')
      .reduce((sum, r) => sum + cents(r.amount.value), 0);
    const left = cents(payment.amount.value) - refunded;
    const asked = cents(amount.value as string);
    ensure(asked > 0, 'The amount is lower than the minimum', 'amount.value');
    ensure(
      asked <= left,
      `The amount is higher than the amount remaining (${(left / 100).toFixed(2)})`,
      'amount.value',
    );
    const { description = '', metadata = null } = input;
    ensure(
      typeof description === 'string' && description.length <= 255,
      'The description is invalid',
      'description',
    );
    ensure(JSON.stringify(metadata).length <= 1024, 'The metadata is larger than 1024 bytes', 'metadata');
    const id = randomId('re_');
    return {
      resource: 'refund',
      id,
      mode: payment.mode,
      amount: { currency: amount.currency as string, value: amount.value as string },
      description,
      metadata,
      // "Refunds will be executed with a delay of two hours": pending until then.
      status: 'pending',
      paymentId: payment.id,
      createdAt: timestamp(),
      _links: {
        self: link(`${apiEndpoint}payments/${payment.id}/refunds/${id}`),
        payment: link(`${apiEndpoint}payments/${payment.id}`),
        documentation: link('https://docs.mollie.com/reference/create-refund', 'text/html'),
      },
    };
  };

  const api = (method: string, path: string, body: string, authorization: string | undefined) => {
    if (unavailable)
      throw new MollieError(503, 'Service Unavailable', 'The stand-in is unavailable (setUnavailable)');
    const key = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (!key || !/^(test|live)_/.test(key)) {
      throw new MollieError(401, 'Unauthorized Request', 'Missing authentication, or failed to authenticate');
    }
    const mode = key.startsWith('live_') ? 'live' : 'test';
    const [, resource, id, sub] = /^\/v2\/([a-z]+)(?:\/([^/]+))?(?:\/([a-z]+))?$/.exec(path) ?? [];
    const route = `${method} ${resource}${id ? '/:id' : ''}${sub ? `/${sub}` : ''}`;
    let input: Record<string, unknown> = {};
    if (method === 'POST') {
      try {
        input = JSON.parse(body) as Record<string, unknown>;
      } catch {
        throw new MollieError(400, 'Bad Request', 'The request body is not valid JSON');
      }
    }
    const payment = resource === 'payments' && id ? payments.get(id) : undefined;
    const customer = resource === 'customers' && id ? customers.get(id) : undefined;
    if (id && !payment && !customer) {
      throw new MollieError(404, 'Not Found', `No ${resource.replace(/s$/, '')} exists with token ${id}.`);
    }
    const list = (name: string, items: unknown[]) => ({
      count: items.length,
      _embedded: { [name]: items },
      _links: {
        self: link(`${apiEndpoint}${path.slice(4)}`),
        previous: null,
        next: null,
        documentation: DOCUMENTATION,
      },
    });
    switch (route) {
      case 'POST payments': {
        const created = createPayment(input, mode);
        payments.set(created.id, created);
        return { status: 201, body: created };
      }
      case 'GET payments/:id':
        return { status: 200, body: payment };
      case 'POST payments/:id/refunds': {
        const created = createRefund(payment!, input);
        refunds.set(created.id, created);
        return { status: 201, body: created };
      }
      case 'GET payments/:id/refunds': {
        const own = [...refunds.values()].filter((r) => r.paymentId === id);
        return { status: 200, body: list('refunds', own) };
      }
      case 'DELETE payments/:id':
        ensure(payment!.isCancelable && payment!.status === 'open', `The payment ${id} cannot be canceled`);
        setStatus(payment!, 'canceled');
        return { status: 200, body: payment };
      case 'POST customers': {
        const created = createCustomer(input, mode);
        customers.set(created.id, created);
        return { status: 201, body: created };
      }
      case 'GET customers/:id':
        return { status: 200, body: customer };
      case 'GET customers/:id/mandates': {
        const own = [...mandates.values()].filter((m) => m.customerId === id);
        return { status: 200, body: list('mandates', own) };
      }
      case 'GET methods': {
        const described = METHODS.map((m) => ({ resource: 'method', ...m, status: 'activated', _links: {} }));
        return { status: 200, body: list('methods', described) };
      }
    }
    throw new MollieError(404, 'Not Found', `The resource ${method} ${path} does not exist`);
  };

  /** Mollie's test-mode page: the tester picks the outcome by its label and continues. */
  const page = (payment: MolliePayment) => {
    const radio = (value: MollieOutcome, label: string) =>
      `<p><label><input type="radio" name="status" value="${value}"${value === 'paid' ? ' checked' : ''}> ${label}</label></p>`;
    const open = [
      `<h1>Test payment: ${payment.amount.currency} ${payment.amount.value}</h1>`,
      `<p>${escapeHtml(payment.description)}</p>`,
      '<form method="post"><fieldset><legend>Select the payment status</legend>',
      radio('paid', 'Paid') +
        radio('failed', 'Failed') +
        radio('canceled', 'Canceled') +
        radio('expired', 'Expired'),
      '</fieldset><button type="submit">Continue</button></form>',
    ];
    const body = payment.status === 'open' ? open.join('\n') : `<h1>This payment is ${payment.status}.</h1>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Mollie checkout stand-in</title></head><body><main>${body}</main></body></html>`;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const { pathname } = new URL(req.url ?? '/', origin);
    requests.push({ method, path: pathname });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const checkout = /^\/checkout\/([^/]+)$/.exec(pathname);
    if (checkout) {
      const payment = payments.get(checkout[1]);
      const html = (status: number, text: string) =>
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(text);
      if (!payment) return html(404, '<!doctype html><title>Not found</title><h1>Payment not found.</h1>');
      if (method !== 'POST' || payment.status !== 'open')
        return html(method === 'POST' ? 409 : 200, page(payment));
      const status = new URLSearchParams(body).get('status');
      if (!['paid', 'failed', 'canceled', 'expired'].includes(status ?? '')) return html(400, page(payment));
      const redirect = await settle(payment, status as MollieOutcome);
      return redirect ? res.writeHead(303, { location: redirect }).end() : html(200, page(payment));
    }
    const json = (status: number, payload: unknown) =>
      res.writeHead(status, { 'content-type': 'application/hal+json' }).end(JSON.stringify(payload));
    // API idempotency (https://docs.mollie.com/overview/api-idempotency): a request repeating an earlier one's
    // Idempotency-Key is a duplicate and gets the first answer back, as it was then.
    const key = method === 'POST' || method === 'DELETE' ? req.headers['idempotency-key'] : undefined;
    const duplicate = typeof key === 'string' ? `${method} ${pathname} ${key}` : undefined;
    const saved = duplicate && idempotent.get(duplicate);
    if (saved) return res.writeHead(saved.status, { 'content-type': 'application/hal+json' }).end(saved.text);
    try {
      const answer = api(method, pathname, body, req.headers.authorization);
      if (duplicate) idempotent.set(duplicate, { status: answer.status, text: JSON.stringify(answer.body) });
      json(answer.status, answer.body);
    } catch (error) {
      if (!(error instanceof MollieError)) throw error;
      const { status, title, message: detail, field } = error;
      json(status, {
        status,
        title,
        detail,
        ...(field && { field }),
        _links: { documentation: DOCUMENTATION },
      });
    }
  };

  const listener: RequestListener = (req, res) => {
    handle(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  };
  const tlsCredentials = selfSignedCertificate();
  const plain = createServer(listener);
  const tls = createTlsServer(tlsCredentials, listener);
  const listen = async (server: Server, port: number) => {
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  origin = `http://127.0.0.1:${await listen(plain, options.port ?? 0)}`;
  apiEndpoint = `https://127.0.0.1:${await listen(tls, 0)}/v2/`;
  const find = (id: string) => {
    const payment = payments.get(id);
    if (!payment) throw new Error(`No payment ${id}`);
    return payment;
  };

  return {
    url: origin,
    apiEndpoint,
    certificate: tlsCredentials.cert,
    payments,
    refunds,
    customers,
    mandates,
    deliveries,
    requests,
    setDeliverWebhooks: (on) => void (deliverWebhooks = on),
    setUnavailable: (on) => void (unavailable = on),
    settle: (paymentId, status) => settle(find(paymentId), status),
    setStatus: (paymentId, status) => setStatus(find(paymentId), status),
    close: async () => {
      await queue;
      for (const server of [plain, tls]) server.closeAllConnections();
      await Promise.all(
        [plain, tls].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    },
  };
}
