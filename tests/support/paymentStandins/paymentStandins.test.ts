/**
 * The payment stand-ins speak what the real SDKs send and understand what they answer: every case goes through
 * `stripe` or `@mollie/api-client` (the hosted pages through plain HTTP, as a browser would post their forms).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createMollieClient, MollieApiError } from '@mollie/api-client';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  parseStripeForm,
  startMollieStandin,
  startStripeStandin,
  type MollieStandin,
  type StripeStandin,
} from '.';

/** A webhook endpoint recording what it receives. */
async function startReceiver() {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { url, received, close };
}

/** Posts a hosted page's form as a browser would, without following the redirect. */
const postForm = (url: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

async function rejection(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the call should have failed').toBeInstanceOf(Error);
  return error as Record<string, unknown>;
}

describe('parseStripeForm', () => {
  it('turns bracket notation into nested objects and indexed keys into arrays', () => {
    const body =
      'mode=payment&line_items[0][price_data][unit_amount]=1290&line_items[0][price_data][product_data][name]=A%20B' +
      '&metadata[paymentId]=p1&payment_method_types[0]=card&payment_method_types[1]=paypal&expand[]=x&expand[]=y';
    expect(parseStripeForm(body)).toEqual({
      mode: 'payment',
      line_items: [{ price_data: { unit_amount: '1290', product_data: { name: 'A B' } } }],
      metadata: { paymentId: 'p1' },
      payment_method_types: ['card', 'paypal'],
      expand: ['x', 'y'],
    });
  });
});

describe('the Stripe stand-in, through the stripe SDK', () => {
  const secret = 'whsec_standin';
  let standin: StripeStandin;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let stripe: Stripe;
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: 'payment',
    line_items: [
      { price_data: { currency: 'eur', unit_amount: 1290, product_data: { name: 'Renewal' } }, quantity: 1 },
    ],
    allowed_payment_method_types: ['card'],
    client_reference_id: 'P1',
    metadata: { paymentId: 'P1' },
    success_url: 'https://portal.example/return?session={CHECKOUT_SESSION_ID}',
    cancel_url: 'https://portal.example/cancel',
    locale: 'de',
  };
  const create = (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
    stripe.checkout.sessions.create({ ...params, ...overrides });
  const sessionOf = (event: Stripe.Event) => event.data.object as Stripe.Checkout.Session;
  const eventsReceived = () =>
    receiver.received.map((r) =>
      stripe.webhooks.constructEvent(r.body, r.headers['stripe-signature']!, secret),
    );

  beforeAll(async () => {
    receiver = await startReceiver();
    standin = await startStripeStandin({ webhookUrl: receiver.url, webhookSecret: secret });
    stripe = new Stripe('sk_test_standin', { host: standin.host, port: standin.port, protocol: 'http' });
  });
  afterAll(async () => {
    await standin.close();
    await receiver.close();
  });

  it('creates and retrieves a checkout session', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3600;
    const session = await create({ expires_at: expiresAt });
    expect(session).toMatchObject({
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 1290,
      currency: 'eur',
      client_reference_id: 'P1',
      metadata: { paymentId: 'P1' },
      locale: 'de',
      expires_at: expiresAt,
      url: `${standin.url}/c/pay/${session.id}`,
      payment_intent: null,
      payment_method_types: ['card'],
      allowed_payment_method_types: ['card'],
      livemode: false,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toEqual(session);
    expect(standin.requests).toContainEqual({ method: 'POST', path: '/v1/checkout/sessions' });
    expect((await stripe.balance.retrieve()).object).toBe('balance');
  });

  it("answers with Stripe's errors", async () => {
    const wrongKey = new Stripe('pk_test_x', { host: standin.host, port: standin.port, protocol: 'http' });
    expect(await rejection(wrongKey.balance.retrieve())).toMatchObject({ type: 'StripeAuthenticationError' });
    const missing = await rejection(stripe.checkout.sessions.retrieve('cs_test_nope'));
    expect(missing).toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });
    for (const [overrides, param] of [
      [{ success_url: undefined }, 'success_url'],
      [{ locale: 'de-DE' }, 'locale'],
      [{ line_items: [{ price_data: { currency: 'eur', unit_amount: 0, product_data: { name: 'x' } }, quantity: 1 }] }, 'line_items[0][price_data][unit_amount]'], // prettier-ignore
      [{ customer_creation: 'always' }, 'customer_creation'],
    ] as const) {
      const error = await rejection(create(overrides as Partial<Stripe.Checkout.SessionCreateParams>));
      expect(error).toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, param });
    }
  });

  it('follows the API version: payment_method_types until 2026-09-30.endive, allowed_payment_method_types since', async () => {
    const legacy = {
      ...params,
      allowed_payment_method_types: undefined,
      payment_method_types: ['card', 'paypal'],
    };
    const refused = await rejection(
      stripe.checkout.sessions.create(legacy as Stripe.Checkout.SessionCreateParams),
    );
    expect(refused).toMatchObject({
      code: 'payment_method_types_no_longer_supported',
      param: 'payment_method_types',
    });
    const dahlia = new Stripe('sk_test_standin', {
      ...{ host: standin.host, port: standin.port, protocol: 'http' },
      apiVersion: '2026-08-26.dahlia' as Stripe.LatestApiVersion,
    });
    const session = await dahlia.checkout.sessions.create(legacy as Stripe.Checkout.SessionCreateParams);
    expect(session).toMatchObject({
      payment_method_types: ['card', 'paypal'],
      allowed_payment_method_types: null,
    });
    const setupWithoutCurrency = stripe.checkout.sessions.create({
      mode: 'setup',
      success_url: 'https://x.example',
    });
    expect(await rejection(setupWithoutCurrency)).toMatchObject({
      param: 'currency',
      code: 'parameter_missing',
    });
  });

  it('replays a request with the same idempotency key and refuses the key for other parameters', async () => {
    const first = await stripe.checkout.sessions.create(
      { mode: 'setup', currency: 'eur', success_url: 'https://portal.example/ok' },
      { idempotencyKey: 'key-1' },
    );
    const again = await stripe.checkout.sessions.create(
      { mode: 'setup', currency: 'eur', success_url: 'https://portal.example/ok' },
      { idempotencyKey: 'key-1' },
    );
    expect(again.id).toBe(first.id);
    const other = stripe.checkout.sessions.create(
      { mode: 'setup', currency: 'eur', success_url: 'https://portal.example/other' },
      { idempotencyKey: 'key-1' },
    );
    expect(await rejection(other)).toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('expires an open session once and sends checkout.session.expired', async () => {
    const session = await create();
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    expect(await rejection(stripe.checkout.sessions.expire(session.id))).toMatchObject({ statusCode: 400 });
    await standin.flushWebhooks();
    expect(
      eventsReceived()
        .filter((e) => sessionOf(e).id === session.id)
        .map((e) => e.type),
    ).toEqual(['checkout.session.expired']);
    expect(await (await fetch(session.url!)).text()).toContain('This Checkout Session has expired.');
  });

  it('shows a decline on the hosted page, then pays and redirects after the webhook was delivered', async () => {
    const session = await create();
    const html = await (await fetch(session.url!)).text();
    expect(html).toContain('<label for="card-number">Card number</label>');
    expect(html).toMatch(/>Pay<\/button>.*>Cancel<\/button>/s);

    const declined = await postForm(session.url!, { action: 'card', cardNumber: '4000 0000 0000 0002' });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('<p role="alert">Your card was declined.</p>');
    const poor = await postForm(session.url!, { action: 'card', cardNumber: '4000000000009995' });
    expect(await poor.text()).toContain('Your card has insufficient funds.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');

    const paid = await postForm(session.url!, { action: 'card', cardNumber: '4242 4242 4242 4242' });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`https://portal.example/return?session=${session.id}`);
    const completed = eventsReceived().find((e) => sessionOf(e).id === session.id);
    expect(completed).toMatchObject({ type: 'checkout.session.completed', api_version: Stripe.API_VERSION });
    expect(completed?.data.object).toMatchObject({ status: 'complete', payment_status: 'paid' });
    expect(standin.deliveries.at(-1)).toMatchObject({ eventId: completed!.id, status: 200 });
    const retrieved = await stripe.checkout.sessions.retrieve(session.id);
    expect(retrieved).toMatchObject({ status: 'complete', payment_status: 'paid', url: null });
    expect(retrieved.payment_intent).toMatch(/^pi_/);
  });

  it('sends the customer back to cancel_url and keeps the session open', async () => {
    const session = await create();
    const canceled = await postForm(session.url!, { action: 'cancel' });
    expect([canceled.status, canceled.headers.get('location')]).toEqual([
      303,
      'https://portal.example/cancel',
    ]);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });

  it('saves a card in setup mode and approves a PayPal-only session', async () => {
    const setup = await stripe.checkout.sessions.create({
      mode: 'setup',
      currency: 'eur',
      allowed_payment_method_types: ['card'],
      success_url: 'https://portal.example/saved',
    });
    expect(setup).toMatchObject({ payment_status: 'no_payment_required', amount_total: null });
    expect(await (await fetch(setup.url!)).text()).toContain('>Save card</button>');
    expect(await standin.pay(setup.id)).toBe('https://portal.example/saved');
    const saved = await stripe.checkout.sessions.retrieve(setup.id);
    expect(saved).toMatchObject({
      status: 'complete',
      payment_status: 'no_payment_required',
      payment_intent: null,
    });
    expect(saved.setup_intent).toMatch(/^seti_/);

    const paypal = await create({ allowed_payment_method_types: ['paypal'] });
    const page = await (await fetch(paypal.url!)).text();
    expect(page).toContain('>Approve</button>');
    expect(page).not.toContain('Card number');
    const approved = await postForm(paypal.url!, { action: 'paypal' });
    expect(approved.status).toBe(303);
    expect((await stripe.checkout.sessions.retrieve(paypal.id)).payment_status).toBe('paid');
  });

  it('reports an asynchronous payment after completion, and a programmatic decline throws', async () => {
    const session = await create();
    await expect(standin.pay(session.id, '4000000000000002')).rejects.toThrow('card_declined');
    await standin.completeAsync(session.id, 'succeeded');
    const failing = await create();
    await standin.completeAsync(failing.id, 'failed');
    const byType = (id: string) =>
      eventsReceived()
        .filter((e) => sessionOf(e).id === id)
        .map((e) => [e.type, sessionOf(e).payment_status]);
    expect(byType(session.id)).toEqual([
      ['checkout.session.completed', 'unpaid'],
      ['checkout.session.async_payment_succeeded', 'paid'],
    ]);
    expect(byType(failing.id)).toEqual([
      ['checkout.session.completed', 'unpaid'],
      ['checkout.session.async_payment_failed', 'unpaid'],
    ]);
  });

  it('records events without delivering them when told to, and survives an unreachable webhook', async () => {
    standin.setDeliverWebhooks(false);
    const quiet = await create();
    const deliveries = standin.deliveries.length;
    await standin.pay(quiet.id);
    expect(standin.deliveries.length).toBe(deliveries);
    expect(standin.events.at(-1)).toMatchObject({ type: 'checkout.session.completed', pending_webhooks: 0 });

    standin.setDeliverWebhooks(true);
    standin.setWebhook('http://127.0.0.1:9/unreachable', secret);
    const session = await create();
    const paid = await postForm(session.url!, { action: 'card', cardNumber: '4242424242424242' });
    expect(paid.status).toBe(303);
    expect(standin.deliveries.at(-1)).toMatchObject({ type: 'checkout.session.completed', status: null });
    standin.setWebhook(receiver.url, secret);

    const { payload, header } = standin.signedEvent('checkout.session.completed', session.id);
    expect(stripe.webhooks.constructEvent(payload, header, secret).data.object).toMatchObject({
      id: session.id,
    });
  });
});

describe('the Mollie stand-in, through @mollie/api-client', () => {
  let standin: MollieStandin;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let mollie: ReturnType<typeof createMollieClient>;
  const create = (overrides: Record<string, unknown> = {}) =>
    mollie.payments.create({
      amount: { currency: 'EUR', value: '12.90' },
      description: 'Renewal 4279710632',
      redirectUrl: 'https://portal.example/return',
      cancelUrl: 'https://portal.example/cancel',
      webhookUrl: receiver.url,
      method: 'creditcard',
      locale: 'de_DE',
      metadata: { paymentId: 'P1' },
      ...overrides,
    } as Parameters<typeof mollie.payments.create>[0]);

  beforeAll(async () => {
    // The SDK trusts only its own bundled root certificates (see mollieStandin.ts).
    vi.stubEnv('NODE_TLS_REJECT_UNAUTHORIZED', '0');
    receiver = await startReceiver();
    standin = await startMollieStandin();
    mollie = createMollieClient({
      apiKey: 'test_standinstandinstandinstandin',
      apiEndpoint: standin.apiEndpoint,
    });
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await standin.close();
    await receiver.close();
  });

  it('lists methods, and answers 401 to a wrong key', async () => {
    expect((await mollie.methods.list()).map((m) => m.id)).toEqual(['creditcard', 'paypal']);
    const wrong = createMollieClient({ apiKey: 'nope', apiEndpoint: standin.apiEndpoint });
    const error = await rejection(wrong.methods.list());
    expect(error).toBeInstanceOf(MollieApiError);
    expect(error).toMatchObject({ statusCode: 401, title: 'Unauthorized Request' });
    expect(standin.requests).toContainEqual({ method: 'GET', path: '/v2/methods' });
  });

  it('serves a certificate valid for 127.0.0.1, and the API over plain http too', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) =>
      httpsRequest(`${standin.apiEndpoint}methods`, {
        ca: standin.certificate,
        rejectUnauthorized: true,
        headers: { authorization: 'Bearer test_x' },
      })
        .on('response', (res) => resolve(res.resume().statusCode))
        .on('error', reject)
        .end(),
    );
    expect(status).toBe(200);
    const plain = await fetch(`${standin.url}/v2/methods`, { headers: { authorization: 'Bearer test_x' } });
    expect(((await plain.json()) as { count: number }).count).toBe(2);
  });

  it('creates, gets and cancels a payment', async () => {
    const payment = await create();
    expect(payment).toMatchObject({
      resource: 'payment',
      mode: 'test',
      status: 'open',
      isCancelable: true,
      amount: { currency: 'EUR', value: '12.90' },
      method: 'creditcard',
      locale: 'de_DE',
      metadata: { paymentId: 'P1' },
      sequenceType: 'oneoff',
    });
    expect(payment.id).toMatch(/^tr_/);
    expect(payment.getCheckoutUrl()).toBe(`${standin.url}/checkout/${payment.id}`);
    expect((await mollie.payments.get(payment.id)).status).toBe('open');
    const canceled = await mollie.payments.cancel(payment.id);
    expect(canceled).toMatchObject({ status: 'canceled', isCancelable: false });
    expect(Date.parse(canceled.canceledAt!)).not.toBeNaN();
    expect(await rejection(mollie.payments.cancel(payment.id))).toMatchObject({ statusCode: 422 });
    expect(await rejection(mollie.payments.get('tr_unknown'))).toMatchObject({ statusCode: 404 });
    expect(standin.requests).toContainEqual({ method: 'DELETE', path: `/v2/payments/${payment.id}` });
  });

  it('answers a repeated idempotency key with the first answer', async () => {
    const first = await create({ idempotencyKey: 'portal-P9' });
    const again = await create({ idempotencyKey: 'portal-P9', description: 'Another try' });
    expect(again.id).toBe(first.id);
    expect((await create()).id).not.toBe(first.id);
  });

  it('refuses what Mollie refuses', async () => {
    for (const [overrides, field] of [
      [{ amount: { currency: 'EUR', value: '12.9' } }, 'amount.value'],
      [{ description: '' }, 'description'],
      [{ redirectUrl: undefined }, 'redirectUrl'],
      [{ amount: { currency: 'EUR', value: '0.00' } }, 'amount.value'],
      [{ sequenceType: 'first' }, 'customerId'],
    ] as const) {
      expect(await rejection(create(overrides))).toMatchObject({ statusCode: 422, field });
    }
  });

  it('settles on the test checkout page: webhook with the id, then back to the shop', async () => {
    const payment = await create();
    const html = await (await fetch(payment.getCheckoutUrl()!)).text();
    for (const label of ['Paid', 'Failed', 'Canceled', 'Expired'])
      expect(html).toContain(` ${label}</label>`);
    expect(html).toContain('>Continue</button>');
    const paid = await postForm(payment.getCheckoutUrl()!, { status: 'paid' });
    expect([paid.status, paid.headers.get('location')]).toEqual([303, 'https://portal.example/return']);
    const hook = receiver.received.at(-1)!;
    expect(hook.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(hook.body).toBe(`id=${payment.id}`);
    expect(standin.deliveries.at(-1)).toEqual({ paymentId: payment.id, paymentStatus: 'paid', status: 200 });
    const after = await mollie.payments.get(payment.id);
    expect(after).toMatchObject({ status: 'paid', isCancelable: false });
    expect(Date.parse(after.paidAt!)).not.toBeNaN();
    expect(after.getCheckoutUrl()).toBeNull();

    const canceled = await create();
    expect(await standin.settle(canceled.id, 'canceled')).toBe('https://portal.example/cancel');
  });

  it('leaves a mandate after a first payment, and loses a webhook on request', async () => {
    const customer = await mollie.customers.create({ name: 'Erika Mustermann', email: 'erika@example.com' });
    expect(customer.id).toMatch(/^cst_/);
    const first = await create({
      amount: { currency: 'EUR', value: '0.00' },
      sequenceType: 'first',
      customerId: customer.id,
    });
    await standin.settle(first.id, 'paid');
    const mandates = await mollie.customerMandates.page({ customerId: customer.id });
    expect(mandates.map((m) => [m.status, m.method])).toEqual([['valid', 'creditcard']]);
    expect((await mollie.payments.get(first.id)).mandateId).toBe(mandates[0].id);

    const lost = await create();
    const deliveries = standin.deliveries.length;
    standin.setStatus(lost.id, 'paid');
    expect(standin.deliveries.length).toBe(deliveries);
    expect((await mollie.payments.get(lost.id)).status).toBe('paid');
  });
});
