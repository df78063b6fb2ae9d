/**
 * One language at a time, on the server: subscriptions and purchase orders
 * answer in the screen's language (Accept-Language) when the order system gave the prose in it,
 * the codes the screens label are sent, sign-in mails are written in the language the visitor
 * used and their link carries it, and a tenant that offers one language answers only in that one.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData } from '../../../server/seed';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';
import { localePack } from '../../../server/seed/locales';

function tenant(id: string, locales: Array<'de-DE' | 'en-GB'>): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales,
    features: ['pending-orders'],
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  });
}

const outbox = createTestOutbox('portal-languages-outbox-');
const bilingual = tenant(uniqueTenantId('lang-both'), ['de-DE', 'en-GB']);
const germanOnly = tenant(uniqueTenantId('lang-de'), ['de-DE']);
let baseUrl: string;
let close: () => Promise<void>;
let db: Database;
let logins: Awaited<ReturnType<typeof seedDemoData>>;

/** Asks for a magic link with the screen in `language` (no `locale` in the body, as a plain Accept-Language). */
async function signIn(t: ServerTenant, email: string, language: string) {
  return signInByMagicLink(outbox, {
    baseUrl,
    tenantId: t.id,
    email,
    headers: { 'accept-language': language },
    oneMail: true,
  });
}

const emailOf = (t: ServerTenant) => logins.filter((l) => l.tenantId === t.id)[0].email;

beforeAll(async () => {
  db = await getTestDatabase();
  logins = await seedDemoData(db, [bilingual, germanOnly], { today: new Date() });
  const { app } = createApp({
    db,
    tenants: [bilingual, germanOnly],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('one language at a time', () => {
  it('writes the sign-in mail in the language of the screen and puts that language into the link', async () => {
    const { mail, link } = await signIn(bilingual, emailOf(bilingual), 'en-GB,en;q=0.9');
    expect(mail.subject).toMatch(/Your login link/);
    expect(link.searchParams.get('lang')).toBe('en');
    const german = await signIn(bilingual, emailOf(bilingual), 'de-DE');
    expect(german.mail.subject).toMatch(/Ihr Anmeldelink/);
    expect(german.link.searchParams.get('lang')).toBe('de');
  });

  it('answers subscriptions in English for an English screen: product names and words, with the codes the screens label', async () => {
    const { client } = await signIn(bilingual, emailOf(bilingual), 'en-GB');
    const english = await client.get<Subscription[]>('/subscriptions', { 'accept-language': 'en-GB' });
    const german = await client.get<Subscription[]>('/subscriptions', { 'accept-language': 'de-DE' });
    expect(english.status).toBe(200);
    const pairs = english.body.map((s) => [s, german.body.find((g) => g.id === s.id)!] as const);
    const digital = pairs.find(([s]) => s.mixType === 'DE')!;
    expect(digital[1].mixTypeDetails.mixTypeDesc).toBe('E-Paper');
    expect(digital[0].mixTypeDetails.mixTypeDesc).toBe('Digital edition');
    expect(digital[0].displayName).toMatch(/– Digital edition$/);
    const billed = pairs.find(([s]) => s.billingFrequency === '01' && s.billingFrequencyShortDescription)!;
    expect([billed[0].billingFrequencyShortDescription, billed[1].billingFrequencyShortDescription]).toEqual([
      'monthly',
      'monatlich',
    ]);
    // Nothing of the stored translations leaks into the answer.
    expect(JSON.stringify(english.body)).not.toContain('translations');
  });

  it('answers the subscription page and purchase orders in the language of the screen', async () => {
    const { client } = await signIn(bilingual, emailOf(bilingual), 'en-GB');
    const [first] = (await client.get<Subscription[]>('/subscriptions', { 'accept-language': 'en-GB' })).body;
    const one = await client.get<Subscription>(`/subscriptions/${first.id}`, { 'accept-language': 'en-GB' });
    expect(one.body.displayName).toBe(first.displayName);
    expect(one.body.displayName).not.toMatch(/E-Paper$|Digital-Zugang|Kombi|Mitgliedschaft/);
    const orders = await client.get<Array<{ distributionArticleDescription: string }>>('/purchase-orders', {
      'accept-language': 'en-GB',
    });
    const germanOrders = await client.get<Array<{ distributionArticleDescription: string }>>(
      '/purchase-orders',
      { 'accept-language': 'de-DE' },
    );
    expect(orders.body.length).toBeGreaterThan(0);
    const english = localePack('en-GB').texts.articles;
    const german = localePack('de-DE').texts.articles;
    orders.body.forEach((order, index) => {
      const at = german.indexOf(germanOrders.body[index].distributionArticleDescription);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(order.distributionArticleDescription).toBe(english[at]);
    });
  });

  it('answers a tenant that offers only German in German, whatever the screen asks for', async () => {
    const { client, mail, link } = await signIn(germanOnly, emailOf(germanOnly), 'en-GB');
    expect(mail.subject).toMatch(/Ihr Anmeldelink/);
    expect(link.searchParams.get('lang')).toBe('de');
    const list = await client.get<Subscription[]>('/subscriptions', { 'accept-language': 'en-GB' });
    expect(list.body.find((s) => s.mixType === 'DE')!.mixTypeDetails.mixTypeDesc).toBe('E-Paper');
    const billed = list.body.find((s) => s.billingFrequency === '01' && s.billingFrequencyShortDescription);
    expect(billed?.billingFrequencyShortDescription).toBe('monatlich');
  });
});
