/**
 * A server with the demo data of a tenant that has every offer flow (cancellation, renewal, bulk
 * renewal, upgrade), signed-in clients of the shared demo login, its outbox and the sandbox payment
 * page — for the API tests of the offer flows and the subscription lifecycle.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { createApp } from '../../server/app';
import type { OutboxEntry } from '../../server/mail/mailer';
import { seedDemoData, SHARED_DEMO_EMAIL } from '../../server/seed';
import type { ServerTenant } from '../../server/tenancy/tenantContext';
import type { Subscription } from '../../schemas/generated/subscription';
import type { Database } from '../../server/db/database';
import { getTestDatabase, uniqueTenantId } from './database';
import { browserLikeClient, listen } from './apiClient';
import { makeServerTenant } from './builders';
import { bulkSelectionKey } from '../../engine/domain/offers';
import { createTestOutbox, signInByMagicLink } from './outbox';

export const OFFER_FLOW_FEATURES = ['cancellation', 'renewal', 'upgrade', 'contact-form'];
const PUBLICATIONS = [
  { publication: 'OFP', description: 'Offer Post', kind: 'print', frequency: 'weekly' },
  { publication: 'OFS', description: 'Offer Sunday', kind: 'print', frequency: 'sunday' },
  { publication: 'OFD', description: 'Offer Digital', kind: 'digital', frequency: 'daily' },
];

export function offerFlowTenant(
  id: string,
  features: string[],
  settings: Record<string, unknown> = {},
): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features,
    publications: PUBLICATIONS,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    contactForm: {
      activities: [{ activity: 'WIDERRUF', label: { 'de-DE': 'Widerruf', 'en-GB': 'Revocation' } }],
    },
    ...settings,
  });
}

/** The tenant with every offer flow on, as the offer tests configure it. */
export const fullOfferFlowTenant = (prefix: string) =>
  offerFlowTenant(uniqueTenantId(prefix), OFFER_FLOW_FEATURES, {
    cancellation: { revocationContactActivity: 'WIDERRUF', feedbackForm: true },
    renewal: { recommendationCategory: 'VERL', bulkRenewal: true },
    upgrade: { upgradeTimes: ['NOW', 'NEXT_CYCLE'] },
  });

export type Client = ReturnType<typeof browserLikeClient>;

export interface OfferFlowsServer {
  baseUrl: string;
  db: Database;
  clock: Date;
  close: () => Promise<void>;
  /** One round of the payment reconciliation job (docs/architecture.md "Payments"). */
  reconcilePayments: () => Promise<{ asked: number; settled: number }>;
  /** One round of the refund job (docs/architecture.md "Payments": "Refunds"). */
  refundPayments: () => Promise<{ issued: number; failed: number; retried: number }>;
  mails: (to: string) => Promise<OutboxEntry[]>;
  signIn: (t: ServerTenant, email?: string, locale?: string) => Promise<Client>;
  subscriptions: (client: Client) => Promise<Subscription[]>;
  payOnSandbox: (
    url: string,
    body: Record<string, string>,
  ) => Promise<{ status: number; body: { status: string } }>;
  /** Accepts the card-paid bundle renewal of the first renewable OFP subscription: the pending payment and its popup URL. */
  acceptCardRenewal: (
    t: ServerTenant,
  ) => Promise<{ client: Client; s: Subscription; url: string; paymentId: string }>;
  /** What the popup does first: the portal's checkout URL, which sends it on to the provider's page (its URL). */
  openPopup: (url: string) => Promise<string>;
  /**
   * A bulk renewal of two subscriptions the demo login receives, one by a card offer and one by an
   * invoice offer: what was chosen and the accept's answer (pending: one card payment for both).
   */
  acceptBulkByCardAndInvoice: (t: ServerTenant) => Promise<{
    client: Client;
    card: { s: Subscription; offer: any };
    invoice: { s: Subscription; offer: any };
    accepted: { status: number; body: any };
  }>;
}

/** The first active OFP subscription that is renewable and does not renew itself. */
export const firstRenewable = (list: Subscription[]) =>
  list.find(
    (s) => s.isRenewal && s.publication === 'OFP' && s.orderStatus === 'A' && !s.renewal?.autoRenewal,
  )!;

/** Seeds the tenants, serves them, and gives the helpers the tests sign in and pay with. */
export async function startOfferFlows(
  tenants: ServerTenant[],
  clock = new Date(),
): Promise<OfferFlowsServer> {
  const outbox = createTestOutbox('portal-offers-outbox-');
  const db = await getTestDatabase();
  await seedDemoData(db, tenants, { today: clock });
  const { app, reconcilePayments, refundPayments } = createApp({
    db,
    tenants,
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  const { baseUrl, close } = await listen(app);

  const mails = (to: string) => outbox.mails(to);

  const sessions = new Map<string, Client>();
  async function signIn(t: ServerTenant, email = SHARED_DEMO_EMAIL, locale = 'en-GB'): Promise<Client> {
    const key = `${t.id}/${email}/${locale}`;
    if (sessions.has(key)) return sessions.get(key)!;
    const { client } = await signInByMagicLink(outbox, { baseUrl, tenantId: t.id, email });
    // The screens send their language with every call (engine/core/apiClient.ts).
    const wrapped = {
      ...client,
      get: <T = any>(p: string) => client.get<T>(p, { 'accept-language': locale }),
      post: <T = any>(p: string, b?: unknown) => client.post<T>(p, b, { 'accept-language': locale }),
    } as Client;
    sessions.set(key, wrapped);
    return wrapped;
  }

  async function subscriptions(client: Client): Promise<Subscription[]> {
    const list = await client.get<Subscription[]>('/subscriptions');
    expect(list.status).toBe(200);
    return list.body;
  }

  /** Pays on the sandbox page the accept answer named, as the popup does. */
  async function payOnSandbox(url: string, body: Record<string, string>) {
    const page = new URL(url, baseUrl);
    const client = browserLikeClient(baseUrl, '');
    const html = await client.get<string>(`${page.pathname}${page.search}`, { accept: 'text/html' });
    expect(html.status).toBe(200);
    return client.post<{ status: string }>(page.pathname, { key: page.searchParams.get('key'), ...body });
  }

  async function acceptCardRenewal(t: ServerTenant) {
    const client = await signIn(t);
    const s = firstRenewable(await subscriptions(client));
    const accepted = await client.post<any>(
      `/subscriptions/${s.id}/recommendations/OFP-RENEW-BUNDLE/accept?source=renewal`,
    );
    expect(accepted.status).toBe(200);
    expect(accepted.body.status).toBe('pending');
    return {
      client,
      s,
      url: accepted.body.url as string,
      paymentId: accepted.body.pendingPayment.id as string,
    };
  }

  async function openPopup(url: string): Promise<string> {
    const answer = await fetch(new URL(url, baseUrl), { redirect: 'manual' });
    expect(answer.status, await answer.clone().text()).toBe(303);
    return answer.headers.get('location')!;
  }

  async function acceptBulkByCardAndInvoice(t: ServerTenant) {
    const client = await signIn(t);
    const list = (await subscriptions(client)).filter(
      (x) => x.isRenewal && x.roles.includes('WE') && x.orderStatus === 'A',
    );
    const provider = (o: any) => o.paymentProviders[0].PAYMENT_PROVIDER;
    let card: { s: Subscription; offer: any } | undefined;
    let invoice: { s: Subscription; offer: any } | undefined;
    for (const s of list) {
      const offers = (await client.get<any[]>(`/subscriptions/${s.id}/recommendations?source=bulk-renewal`))
        .body;
      const byCard = offers.find((o) => provider(o) === 'CREDIT_CARD');
      const byInvoice = offers.find((o) => provider(o) === 'INVOICE');
      if (!card && byCard) card = { s, offer: byCard };
      else if (!invoice && byInvoice) invoice = { s, offer: byInvoice };
    }
    // The demo holds a renewable subscription with a card offer and another with an invoice offer.
    if (!card || !invoice)
      throw new Error('the demo data has no card and invoice bulk offers on two subscriptions');
    const accepted = await client.post<any>('/subscriptions/acceptAllRecommendations', {
      selectedRecommendations: {
        [bulkSelectionKey(card.s)]: {
          recommendationId: card.offer.id,
          paymentProviders: [{ PAYMENT_PROVIDER: 'CREDIT_CARD' }],
        },
        [bulkSelectionKey(invoice.s)]: {
          recommendationId: invoice.offer.id,
          paymentProviders: [{ PAYMENT_PROVIDER: 'INVOICE' }],
        },
      },
    });
    return { client, card, invoice, accepted };
  }

  return {
    acceptBulkByCardAndInvoice,
    acceptCardRenewal,
    openPopup,
    baseUrl,
    db,
    clock,
    close,
    reconcilePayments,
    refundPayments,
    mails,
    signIn,
    subscriptions,
    payOnSandbox,
  };
}
