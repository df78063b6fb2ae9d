/**
 * One language per screen, on the server: every name of the order system — the
 * subscriptions on the addresses page, pending orders, issues (next, delivered, upcoming, to
 * complain about) — is answered in the language of the screen (Accept-Language), and an opt-in is
 * named the same on the screen and in its confirmation e-mail.
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

/** Words of the demo's German order-system prose that must not reach an English screen, and the other way round. */
const GERMAN =
  /Probeabo|Upgrade auf|Digital-Zugang|Kombi|Leserclub|E-Paper$|Ausgabe \d|Stadtgeschichte|Ersatz/;
const ENGLISH =
  /trial|upgrade to digital|Online access|bundle|Readers' Club|Digital edition|Print edition|issue \d|city history|Replacement/;

const tenantOf = (id: string): ServerTenant =>
  makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    locales: ['de-DE', 'en-GB'],
    features: [
      'pending-orders',
      'issue-history',
      'issue-complaint',
      'issue-calendar',
      'opt-ins',
      'address-change',
      'membership',
    ],
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    optIns: {
      types: [
        {
          type: 'NEWSLETTER',
          description: {
            'de-DE': 'Verlags-Newsletter per E-Mail',
            'en-GB': "The publisher's newsletter by e-mail",
          },
        },
      ],
    },
  });

const outbox = createTestOutbox('portal-order-language-outbox-');
const tenant = tenantOf(uniqueTenantId('prose'));
let baseUrl: string;
let close: () => Promise<void>;
let db: Database;
let logins: Awaited<ReturnType<typeof seedDemoData>>;

async function signIn(persona: string) {
  const email = logins.find(
    (login) => login.tenantId === tenant.id && login.email.startsWith(persona),
  )!.email;
  const { client } = await signInByMagicLink(outbox, {
    baseUrl,
    tenantId: tenant.id,
    email,
    headers: { 'accept-language': 'en-GB' },
  });
  return { client, email };
}

/**
 * Every string of an answer. A refusal's `error` is left out: its message is the API's, for the
 * developer and the log, and its reason a code; the screen says the refusal in its own words from
 * the capability table (docs/architecture.md "Server: schema → route → service → store").
 */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object' && 'error' in value) return [];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const inLanguage = (value: unknown, locale: 'de-DE' | 'en-GB') =>
  strings(value).filter(
    (text) => !text.startsWith('data:') && (locale === 'en-GB' ? GERMAN : ENGLISH).test(text),
  );

beforeAll(async () => {
  db = await getTestDatabase();
  logins = await seedDemoData(db, [tenant], { today: new Date() });
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe("the order system's names in the screen's language", () => {
  it('answers the addresses page, pending orders and every issue list in English to an English screen, and in German to a German one', async () => {
    for (const persona of ['anna.schmidt', 'lena.wagner']) {
      const { client } = await signIn(persona);
      for (const locale of ['en-GB', 'de-DE'] as const) {
        const ask = (apiPath: string) =>
          client.get(apiPath, { 'accept-language': locale }).then((answer) => answer.body);
        const subscriptions = (await ask('/subscriptions')) as Subscription[];
        const answers: Record<string, unknown> = {
          '/subscriptions': subscriptions,
          '/business-partners': await ask('/business-partners'),
          '/pending-orders': await ask('/pending-orders'),
        };
        for (const s of subscriptions) {
          const id = encodeURIComponent(s.id);
          answers[`${s.id} delivered`] = await ask(`/subscriptions/${id}/delivered-issues?page=0`);
          answers[`${s.id} upcoming`] = await ask(`/subscriptions/${id}/upcoming-issues`);
          answers[`${s.id} complaint`] = await ask(`/subscriptions/${id}/complaint`);
        }
        for (const [name, answer] of Object.entries(answers))
          expect(inLanguage(answer, locale), `${persona} ${name} in ${locale}`).toEqual([]);
      }
    }
  });

  it('gives the pending orders and the addresses page their own words in each language', async () => {
    const { client } = await signIn('lena.wagner');
    const titles = async (locale: string) =>
      (
        (await client.get('/pending-orders', { 'accept-language': locale })).body as Array<{ title: string }>
      ).map((p) => p.title);
    const german = await titles('de-DE');
    expect(german.some((title) => /– Probeabo 4 Wochen$/.test(title))).toBe(true);
    expect(german).toContain('E-Book: Stadtgeschichte in 100 Bildern');
    const english = await titles('en-GB');
    expect(english.some((title) => /– 4-week trial$/.test(title))).toBe(true);
    expect(english).toContain('E-book: A city history in 100 pictures');
    const partners = (await client.get('/business-partners', { 'accept-language': 'en-GB' })).body as Array<{
      subscriptions: Array<{ displayName: string }>;
    }>;
    expect(
      partners
        .flatMap((p) => p.subscriptions.map((s) => s.displayName))
        .some((name) => /Readers' Club$/.test(name)),
    ).toBe(true);
    expect(JSON.stringify(partners)).not.toContain('translations');
  });

  it('names an opt-in on the screen as its confirmation e-mail names it, in the language of the screen', async () => {
    const { client } = await signIn('lena.wagner');
    const subscriptions = (await client.get('/subscriptions', { 'accept-language': 'en-GB' }))
      .body as Subscription[];
    const s = subscriptions.find((candidate) => candidate.roles.includes('AG'))!;
    const optInsPath = `/subscriptions/${encodeURIComponent(s.id)}/business-partners/${s.currentRoleBusinessPartner.bpNumber}/opt-ins`;
    const list = await client.get(optInsPath, { 'accept-language': 'en-GB' });
    expect(list.status).toBe(200);
    const newsletter = (list.body as Array<{ type: string; description: string; value: boolean }>).find(
      (o) => o.type === 'NEWSLETTER',
    )!;
    expect(newsletter.value).toBe(false);
    // The tenant's label of the type, not the order system's own description.
    expect(newsletter.description).toBe("The publisher's newsletter by e-mail");
    const saved = await client.post(
      optInsPath,
      { optIns: [{ type: 'NEWSLETTER', value: true }] },
      { 'accept-language': 'en-GB' },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.find((o: { type: string }) => o.type === 'NEWSLETTER').description).toBe(
      newsletter.description,
    );
    const mail = (await outbox.mails())
      .filter((candidate) => candidate.subject.startsWith('Please confirm'))
      .at(-1);
    expect(mail?.text).toContain(newsletter.description);
    expect(mail?.text).not.toContain('E-mail newsletter with news and offers');
  });
});
