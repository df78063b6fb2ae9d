/**
 * What the sandbox payment page says, against the seeded demo data:
 * the subscription(s), order number(s) and amount the payment really pays for, in the language of
 * the page that opened it, and a payment-method change that charges nothing saying so.
 *
 * The first test replays what a subscriber saw: a payment started on a German screen (the seeded
 * pending one) whose stored text named another subscription's order was opened from an English
 * page, and the popup showed that text — another subscription's order, in German.
 */
import path from 'node:path';
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../../server/seed';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { Database } from '../../../server/db/database';
import { bulkSelectionKey } from '../../../engine/domain/offers';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';
import { hashToken } from '../../../server/auth/tokens';

const PUBLICATIONS = [
  { publication: 'PYP', description: 'Pay Post', kind: 'print', frequency: 'weekly' },
  { publication: 'PYS', description: 'Pay Sunday', kind: 'print', frequency: 'sunday' },
  { publication: 'PYD', description: 'Pay Digital', kind: 'digital', frequency: 'daily' },
];

function tenant(id: string): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features: ['renewal', 'payment-method-change'],
    publications: PUBLICATIONS,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    renewal: { recommendationCategory: 'VERL', bulkRenewal: true },
    paymentMethodChange: {
      allowedChanges: {
        direct_debit: ['credit_card'],
        sepa: ['credit_card'],
        invoice: ['credit_card'],
        credit_card: ['credit_card'],
        paypal: ['credit_card'],
        none: ['credit_card'],
      },
    },
  });
}

const outbox = createTestOutbox('portal-payments-outbox-');
// One tenant per story, so no story sees another's payments.
const reopened = tenant(uniqueTenantId('pay-reopen'));
const bulk = tenant(uniqueTenantId('pay-bulk'));
const method = tenant(uniqueTenantId('pay-method'));
const clock = new Date();
let baseUrl: string;
let close: () => Promise<void>;
let db: Database;

type Client = ReturnType<typeof browserLikeClient>;
type Locale = 'de-DE' | 'en-GB';

async function signIn(t: ServerTenant, locale: Locale): Promise<Client> {
  const { client } = await signInByMagicLink(outbox, { baseUrl, tenantId: t.id, email: SHARED_DEMO_EMAIL });
  // The screens send their language with every call (engine/core/apiClient.ts).
  return {
    ...client,
    get: <T = any>(p: string) => client.get<T>(p, { 'accept-language': locale }),
    post: <T = any>(p: string, b?: unknown) => client.post<T>(p, b, { 'accept-language': locale }),
  } as Client;
}

async function subscriptions(client: Client): Promise<Subscription[]> {
  const list = await client.get<Subscription[]>('/subscriptions');
  expect(list.status).toBe(200);
  return list.body;
}

/** The popup's page as the browser gets it: the URL of the answer, with the opener's `lang` when given. */
async function openPage(url: string, lang?: string) {
  const page = new URL(url, baseUrl);
  if (lang) page.searchParams.set('lang', lang);
  const popup = browserLikeClient(baseUrl, '');
  // The browser's own language says nothing about the screen's (the popup carries no session).
  const html = await popup.get<string>(`${page.pathname}${page.search}`, {
    accept: 'text/html',
    'accept-language': 'de-DE,de;q=0.9',
  });
  expect(html.status).toBe(200);
  const document = new JSDOM(html.body).window.document;
  const text = (selector: string) =>
    [...document.querySelectorAll(selector)].map((e) => e.textContent!.replace(/\s+/g, ' ').trim());
  return {
    document,
    lang: document.documentElement.lang,
    lines: text('.lines li'),
    amount: text('.amount')[0],
    buttons: text('form button'),
    body: document.body.textContent!.replace(/\s+/g, ' '),
    pay: (body: Record<string, string>) =>
      popup.post<{ status: string }>(page.pathname, { key: page.searchParams.get('key'), ...body }),
  };
}

/** The amount as the page writes it (its spaces read as plain ones, as `openPage` reads the page). */
/** An offer's title in a language, from the offers table's texts (an offer waiting for its payment is no longer offered). */
async function offerTitle(t: ServerTenant, offerId: string, locale: Locale): Promise<string> {
  const [row] = await db.query<{ title: string }>(
    `select offer->'texts'->$3->>'title' as title from offers where tenant_id = $1 and id = $2`,
    [t.id, offerId, locale],
  );
  return row.title;
}

const money = (amount: number, locale: Locale) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(amount).replace(/\s+/g, ' ');

beforeAll(async () => {
  db = await getTestDatabase();
  await seedDemoData(db, [reopened, bulk, method], { today: clock });
  const { app } = createApp({
    db,
    tenants: [reopened, bulk, method],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('the sandbox payment page', () => {
  it('names the subscription a payment started in German is for, in the opener’s language, not the text stored with it', async () => {
    // The seeded pending payment was started on a German screen; its stored text is made to say
    // what a subscriber saw (another subscription's order, in German), as rows stored before the
    // seed was corrected still do.
    const english = await signIn(reopened, 'en-GB');
    const list = await subscriptions(english);
    const [seeded] = await db.query<{ id: string; subscriptionId: string; offerId: string; locale: string }>(
      `select p.id, a.subscription_id as "subscriptionId", a.offer_id as "offerId", p.locale
         from payments p join offer_acceptances a on a.tenant_id = p.tenant_id and a.payment_id = p.id
        where p.tenant_id = $1 and p.status = 'pending'`,
      [reopened.id],
    );
    expect(seeded.locale).toBe('de-DE');
    const s = list.find((x) => x.id === seeded.subscriptionId)!;
    const other = list.find((x) => x.isRenewal && x.id !== s.id)!;
    expect(other).toBeDefined();
    await db.query(
      `update payments set description = $3, secret_hash = $4 where tenant_id = $1 and id = $2`,
      [
        reopened.id,
        seeded.id,
        `${other.orderNumber}: ${PUBLICATIONS[0].description}: 24 Monate`,
        hashToken('opened-again'),
      ],
    );
    const url = `/t/${reopened.id}/api/payments/sandbox/${seeded.id}?key=opened-again`;
    const [price] = await db.query<{ price: number }>(
      `select price::float8 as price from offers where tenant_id = $1 and id = $2`,
      [reopened.id, seeded.offerId],
    );

    const page = await openPage(url, 'en');
    expect(page.lang).toBe('en-GB');
    expect(page.document.querySelector('h1')!.textContent).toBe('Payment (sandbox)');
    expect(page.lines).toEqual([
      `${s.displayName} Order no. ${s.orderNumber} ${await offerTitle(reopened, seeded.offerId, 'en-GB')}`,
    ]);
    expect(page.body).not.toContain(other.orderNumber);
    expect(page.body).not.toContain('Monate');
    expect(page.amount).toBe(`Amount: ${money(price.price, 'en-GB')}`);
    expect(page.buttons).toEqual(['Pay with PayPal (sandbox)', 'Cancel payment']);

    // From a German screen: German words, the German names of subscription and offer.
    const german = await signIn(reopened, 'de-DE');
    const sInGerman = (await subscriptions(german)).find((x) => x.id === s.id)!;
    expect(sInGerman.displayName).not.toBe(s.displayName);
    const deutsch = await openPage(url, 'de');
    expect(deutsch.lang).toBe('de-DE');
    expect(deutsch.lines).toEqual([
      `${sInGerman.displayName} Bestellnr. ${s.orderNumber} ${await offerTitle(reopened, seeded.offerId, 'de-DE')}`,
    ]);
    expect(deutsch.amount).toBe(`Betrag: ${money(price.price, 'de-DE')}`);
    expect(deutsch.buttons).toEqual(['Mit PayPal (Test) bezahlen', 'Zahlung abbrechen']);

    // Without the opener's language, the language the payment was started in; a language the tenant does not offer changes nothing.
    expect((await openPage(url)).lang).toBe('de-DE');
    expect((await openPage(url, 'fr')).lang).toBe('de-DE');
  });

  it('a renewal accepted on an English screen opens an English page naming that subscription and its amount', async () => {
    const english = await signIn(reopened, 'en-GB');
    const renewable = (await subscriptions(english)).filter(
      (x) => x.isRenewal && x.orderStatus === 'A' && x.roles.includes('AG'),
    );
    const offers = await Promise.all(
      renewable.map(async (s) => ({
        s,
        offers: (await english.get<any[]>(`/subscriptions/${s.id}/recommendations?source=renewal`)).body,
      })),
    );
    const { s, offers: list } = offers.find((x) =>
      x.offers.some((o) => o.id === `${x.s.publication}-RENEW-BUNDLE`),
    )!;
    const offer = list.find((o) => o.id === `${s.publication}-RENEW-BUNDLE`)!;
    const accepted = await english.post<any>(
      `/subscriptions/${s.id}/recommendations/${offer.id}/accept?source=renewal`,
    );
    expect(accepted.body.status).toBe('pending');
    const page = await openPage(accepted.body.url, 'en');
    expect(page.lines).toEqual([`${s.displayName} Order no. ${s.orderNumber} ${offer.article.articleText}`]);
    expect(page.amount).toBe(`Amount: ${money(offer.article.price, 'en-GB')}`);
    expect(page.buttons).toEqual(['Pay now', 'Cancel payment']);
    expect(
      (
        await page.pay({
          action: 'pay',
          cardNumber: '4242424242424242',
          expiry: '12/39',
          holder: 'Sam Taylor',
        })
      ).body.status,
    ).toBe('success');
  });

  it('names every subscription and order of a bulk renewal and the total it charges', async () => {
    const english = await signIn(bulk, 'en-GB');
    const [a, b] = (await subscriptions(english)).filter(
      (x) => x.isRenewal && x.roles.includes('WE') && x.orderStatus === 'A',
    );
    expect(b).toBeDefined();
    const offerOf = async (s: Subscription) =>
      (await english.get<any[]>(`/subscriptions/${s.id}/recommendations?source=bulk-renewal`)).body.find(
        (o) => o.id === `${s.publication}-RENEW-BUNDLE`,
      )!;
    const [offerA, offerB] = [await offerOf(a), await offerOf(b)];
    const answer = await english.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [bulkSelectionKey(a)]: {
          recommendationId: offerA.id,
          paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }],
        },
        [bulkSelectionKey(b)]: {
          recommendationId: offerB.id,
          paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }],
        },
      },
    });
    expect(answer.body.status).toBe('pending');
    const page = await openPage(answer.body.url, 'en');
    expect(page.lines).toEqual(
      expect.arrayContaining([
        `${a.displayName} Order no. ${a.orderNumber} ${offerA.article.articleText}`,
        `${b.displayName} Order no. ${b.orderNumber} ${offerB.article.articleText}`,
      ]),
    );
    expect(page.lines).toHaveLength(2);
    expect(page.amount).toBe(`Amount: ${money(offerA.article.price + offerB.article.price, 'en-GB')}`);
    expect(page.buttons).toEqual(['Pay now', 'Cancel payment']);
  });

  it('says that a change of payment method charges nothing, and its button saves the card, in both languages', async () => {
    const english = await signIn(method, 'en-GB');
    let popup: any;
    let s: Subscription | undefined;
    for (const candidate of await subscriptions(english)) {
      const answer = await english.post<any>(`/subscriptions/${candidate.id}/payment-details/credit-card`);
      if (answer.status === 200) {
        [popup, s] = [answer.body, candidate];
        break;
      }
    }
    expect(s).toBeDefined();
    const page = await openPage(popup.url, 'en');
    expect(page.document.querySelector('h1')!.textContent).toBe('Payment method (sandbox)');
    expect(page.lines).toEqual([
      `${s!.displayName} Order no. ${s!.orderNumber} New payment method: credit card`,
    ]);
    expect(page.amount).toBe('No amount is charged now.');
    expect(page.body).not.toMatch(/0\.00|Pay now/);
    expect(page.buttons).toEqual(['Save card', 'Cancel']);

    const deutsch = await openPage(popup.url, 'de');
    expect(deutsch.amount).toBe('Es wird jetzt kein Betrag abgebucht.');
    expect(deutsch.body).not.toMatch(/0,00|Jetzt bezahlen/);
    expect(deutsch.buttons).toEqual(['Karte speichern', 'Abbrechen']);
    expect(deutsch.lines[0]).toContain(`Bestellnr. ${s!.orderNumber} Neue Zahlungsart: Kreditkarte`);
    expect(deutsch.document.getElementById('payment')!.getAttribute('data-text-success')).toBe(
      'Zahlungsart gespeichert. Dieses Fenster schließt sich.',
    );

    expect(
      (
        await page.pay({
          action: 'pay',
          cardNumber: '4242424242424242',
          expiry: '12/39',
          holder: 'Sam Taylor',
        })
      ).body.status,
    ).toBe('success');
  });
});
