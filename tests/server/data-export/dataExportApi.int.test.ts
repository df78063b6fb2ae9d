/**
 * "Download my data" (docs/subscribers.md "Download my data"): the request mails a link (in the subscriber's
 * language), is limited to one a day and recorded; the link downloads a ZIP of the account's data —
 * JSON, a README with the tenant's privacy information and the invoices as PDFs — only for the
 * account that asked, on its own tenant, for 24 hours; no export holds another demo persona's data;
 * and every tenant whose subscribers sign in offers it, on the account details page or else on the
 * addresses page.
 */
import { request } from 'node:http';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData } from '../../../server/seed';
import { hashToken, newSecretToken } from '../../../server/auth/tokens';
import { insertSession } from '../../../server/store/authStore';
import { createUser, findUserByEmail } from '../../../server/store/userStore';
import type { Database } from '../../../server/db/database';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox } from '../../support/outbox';
import { pdfText } from '../documents/pdfText';

const tenantOf = (
  id: string,
  locale: 'de-DE' | 'en-GB',
  features: string[],
  more: Record<string, unknown> = {},
): ServerTenant =>
  makeServerTenant({
    id,
    name: `Export ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: locale,
    locales: ['de-DE', 'en-GB'],
    features,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: true, sessionIdleMinutes: 30 },
    contact: {
      email: 'leser@export.example',
      fallbackEmail: 'leser@export.example',
      fallbackPhone: '+49 30 1',
    },
    ...more,
  });

const PRIVACY = {
  controller: {
    name: 'Export Verlag GmbH',
    addressLines: ['Hafenstraße 7', '20457 Hamburg', 'Deutschland'],
  },
  contactEmail: 'datenschutz@export.example',
  dpoEmail: 'dsb@export.example',
  purposes: { 'de-DE': 'Zweck: Ihr Abo liefern.', 'en-GB': 'Purpose: delivering your subscription.' },
  recipients: { 'de-DE': 'Empfänger: unsere Zusteller.', 'en-GB': 'Recipients: our couriers.' },
  retention: { 'de-DE': 'Speicherdauer: zehn Jahre.', 'en-GB': 'Retention: ten years.' },
  supervisoryAuthority: {
    name: 'Hamburgische Datenschutzbehörde',
    addressLines: ['Ludwig-Erhard-Straße 22', '20459 Hamburg'],
    url: 'https://datenschutz-hamburg.de',
  },
};
// The tenant's own names of two opt-in types: the export names them so, not by the order system's words.
const OPT_IN_LABELS = {
  types: [
    { type: 'NEWSLETTER', description: { 'de-DE': 'Der Export-Brief', 'en-GB': 'The Export Letter' } },
    {
      type: 'PHONE',
      description: { 'de-DE': 'Anrufe vom Leserservice', 'en-GB': 'Calls from reader service' },
    },
  ],
};

const FEATURES = ['sso-profile-page', 'multi-user-licenses', 'payment-history', 'invoice-download'];
const home = tenantOf(uniqueTenantId('export'), 'de-DE', FEATURES, {
  privacy: PRIVACY,
  optIns: OPT_IN_LABELS,
});
const other = tenantOf(uniqueTenantId('export-other'), 'en-GB', FEATURES);
// No account details page (like stadtkurier): the export lives on the addresses page.
const noProfile = tenantOf(uniqueTenantId('export-addr'), 'de-DE', ['payment-history', 'invoice-download'], {
  privacy: PRIVACY,
});
// Nobody signs in to an account here (a tenant file could not say so, the validator refuses it): no export.
const off = tenantOf(uniqueTenantId('export-off'), 'en-GB', [], {
  login: { magicLink: false, password: false, sessionIdleMinutes: 30 },
});
const outbox = createTestOutbox('data-export-outbox-');
let clock = new Date();
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let logins: Array<{ tenantId: string; email: string }>;

async function sessionFor(tenant: ServerTenant, email: string): Promise<string> {
  const user = (await findUserByEmail(db, tenant.id, email)) ?? (await createUser(db, tenant.id, { email }));
  const token = newSecretToken();
  // Valid by the app's clock, which the tests move forward.
  await insertSession(db, tenant.id, {
    tokenHash: hashToken(token),
    userId: user.id,
    loginSource: 'email',
    expiresAt: new Date(clock.getTime() + 3_600_000),
  });
  return token;
}

async function clientFor(tenant: ServerTenant, email: string, locale = tenant.defaultLocale) {
  const token = await sessionFor(tenant, email);
  const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  await client.get('/faq');
  client.setAccessToken(token);
  const post = (p: string) => client.post(p, {}, { 'accept-language': locale });
  return { client, token, post };
}

/** The bytes of a GET (the JSON client reads bodies as text, which breaks a ZIP). */
function download(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string; disposition: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: '*/*', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          disposition: String(res.headers['content-disposition'] ?? ''),
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const downloadPath = (token: string) => `/data-export/download?token=${encodeURIComponent(token)}`;
const fetchZip = (tenant: ServerTenant, session: string, linkToken: string) =>
  download(`${baseUrl}/t/${tenant.id}/api${downloadPath(linkToken)}`, { 'x-auth-token': session });

/**
 * Asks for an export and returns the token of the link the mail carries. Earlier requests of the
 * account are forgotten first (`fresh`), so the daily limit does not couple the tests; the limit's
 * own test keeps them.
 */
async function requestExport(
  tenant: ServerTenant,
  email: string,
  locale = tenant.defaultLocale,
  fresh = true,
) {
  if (fresh)
    await db.query(
      `delete from data_exports where tenant_id = $1 and user_id in (select id from users where tenant_id = $1 and email = $2)`,
      [tenant.id, email],
    );
  const { post, token } = await clientFor(tenant, email, locale);
  const answer = await post('/data-export');
  expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  const mail = (await outbox.mails(email, tenant.id)).at(-1)!;
  const link = /\S*\?dataExport=([A-Za-z0-9_-]+)\S*/.exec(mail.text);
  expect(link, mail.text).not.toBeNull();
  return { session: token, linkToken: link![1], mail, link: link![0], answer };
}

function filesOf(zip: Buffer): Record<string, Uint8Array> {
  return unzipSync(new Uint8Array(zip));
}
const jsonOf = (files: Record<string, Uint8Array>, name: string) => JSON.parse(strFromU8(files[name]));

/** What identifies a persona: its partners' numbers, e-mail addresses, last names and streets. */
async function markersOf(tenant: ServerTenant, email: string): Promise<string[]> {
  const rows = await db.query<Record<string, string | null>>(
    `select bp.bp_number::text as bp, bp.email_address, bp.last_name1, bp.street
       from users u join user_business_partners ubp on ubp.tenant_id = u.tenant_id and ubp.user_id = u.id
       join business_partners bp on bp.tenant_id = ubp.tenant_id and bp.bp_number = ubp.bp_number
      where u.tenant_id = $1 and u.email = $2`,
    [tenant.id, email],
  );
  return [email, ...rows.flatMap((row) => [row.bp, row.email_address, row.last_name1, row.street])].filter(
    (marker): marker is string => Boolean(marker && marker.length > 3),
  );
}

function textOf(files: Record<string, Uint8Array>): string {
  return Object.entries(files)
    .filter(([name]) => !name.endsWith('.pdf'))
    .map(([name, bytes]) => `${name}\n${strFromU8(bytes)}`)
    .join('\n');
}

beforeAll(async () => {
  db = await getTestDatabase();
  logins = await seedDemoData(db, [home, other, noProfile, off], { today: clock });
  const { app } = createApp({
    db,
    tenants: [home, other, noProfile, off],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
  });
  ({ baseUrl, close } = await listen(app));
});
afterAll(async () => close?.());

const personas = (tenant: ServerTenant) =>
  logins.filter((login) => login.tenantId === tenant.id && !login.email.startsWith('demo@'));

describe('asking for an export', () => {
  it('mails a 24-hour link in the screen language, records the request and answers "preparing"', async () => {
    const [first] = personas(home);
    const { mail, link, answer } = await requestExport(home, first.email, 'en-GB');
    expect(answer.body).toMatchObject({ status: 'preparing' });
    expect(answer.body.message).toContain('We are preparing your data');
    expect(mail.subject).toBe(`Your data from ${home.name} is ready to download`);
    expect(mail.text).toContain('24 hours');
    expect(link).toContain(`/t/${home.id}/sso-profile?dataExport=`);
    const user = await findUserByEmail(db, home.id, first.email);
    const events = await db.query<{ type: string; data: Record<string, unknown> }>(
      `select type, data from account_events where tenant_id = $1 and user_id = $2 and type = 'data_export.requested'`,
      [home.id, user!.id],
    );
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0].data)).not.toContain(/dataExport=([^&\s]+)/.exec(link)![1]);
    // Only the hash of the link's token is stored.
    const [stored] = await db.query<{ token_hash: string }>(
      `select token_hash from data_exports where tenant_id = $1 and user_id = $2`,
      [home.id, user!.id],
    );
    expect(stored.token_hash).toBe(hashToken(/dataExport=([A-Za-z0-9_-]+)/.exec(link)![1]));
  });

  it('refuses a second request within 24 hours, saying when, and takes one again after them', async () => {
    const email = 'limit@export.example';
    await requestExport(home, email);
    const { post } = await clientFor(home, email);
    const again = await post('/data-export');
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('rate_limited');
    expect(again.body.error.details.retryAfterSeconds).toBeGreaterThan(23 * 3600);
    expect(again.body.error.details.retryAfterSeconds).toBeLessThanOrEqual(24 * 3600);
    expect(again.headers.get('retry-after')).toBe(String(again.body.error.details.retryAfterSeconds));
    const rows = await db.query(
      `select 1 from data_exports e join users u on u.tenant_id = e.tenant_id and u.id = e.user_id
        where e.tenant_id = $1 and u.email = $2`,
      [home.id, email],
    );
    expect(rows).toHaveLength(1);
    const saved = clock;
    try {
      clock = new Date(saved.getTime() + 24 * 3600_000 + 1000);
      await requestExport(home, email, home.defaultLocale, false);
    } finally {
      clock = saved;
    }
  });

  it('is offered wherever subscribers sign in, and needs a full sign-in', async () => {
    const { post } = await clientFor(off, 'someone@export.example');
    const refusedOff = await post('/data-export');
    expect(refusedOff.status).toBe(403);
    expect(refusedOff.body.error.code).toBe('feature_disabled');
    const anonymous = browserLikeClient(baseUrl, `/t/${home.id}/api`);
    await anonymous.get('/faq');
    expect((await anonymous.post('/data-export')).status).toBe(401);
    // A "logged in only" session (order number + name) is scoped to one subscription: no export.
    const persona = personas(home)[0];
    const user = await findUserByEmail(db, home.id, persona.email);
    const [subscription] = await db.query<{ id: string }>(
      `select r.subscription_id as id from subscription_roles r
         join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
        where r.tenant_id = $1 and ubp.user_id = $2 limit 1`,
      [home.id, user!.id],
    );
    const partial = newSecretToken();
    await insertSession(db, home.id, {
      tokenHash: hashToken(partial),
      userId: user!.id,
      loginSource: 'order-number',
      subscriptionId: subscription.id,
      expiresAt: new Date(clock.getTime() + 3_600_000),
    });
    anonymous.setAccessToken(partial);
    const refused = await anonymous.post('/data-export');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('partial_login');
  });
});

describe('the ZIP', () => {
  it('holds the README in the asked language, every JSON file and the invoices as PDFs', async () => {
    // The second persona pays (RE) a relative's subscription: it has invoices of its own.
    const persona = personas(home)[1];
    const { session, linkToken } = await requestExport(home, persona.email, 'de-DE');
    const zip = await fetchZip(home, session, linkToken);
    expect(zip.status).toBe(200);
    expect(zip.type).toContain('application/zip');
    expect(zip.disposition).toMatch(/attachment; filename="[^"]+\.zip"/);
    const files = filesOf(zip.bytes);
    for (const name of [
      'README.txt',
      'account.json',
      'business-partners.json',
      'subscriptions.json',
      'orders.json',
      'payments.json',
      'opt-ins.json',
      'licences.json',
      'e-cards.json',
      'loyalty.json',
      'contact-messages.json',
      'account-events.json',
    ])
      expect(Object.keys(files), name).toContain(name);
    expect(strFromU8(files['README.txt'])).toContain(`Ihre Daten bei ${home.name}`);
    expect(jsonOf(files, 'account.json')).toMatchObject({ email: persona.email });
    expect(JSON.stringify(jsonOf(files, 'account.json'))).not.toMatch(/passwordHash|scrypt/);
    const events = jsonOf(files, 'account-events.json') as Array<{ type: string }>;
    expect(events.map((event) => event.type)).toContain('data_export.requested');

    const payments = jsonOf(files, 'payments.json');
    const withInvoice = payments.paymentHistory.filter((p: { invoiceFile: string | null }) => p.invoiceFile);
    expect(withInvoice.length).toBeGreaterThan(0);
    const first = withInvoice[0];
    const pdf = files[first.invoiceFile];
    expect(pdf, first.invoiceFile).toBeDefined();
    expect(strFromU8(pdf.slice(0, 5))).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text.text).toContain(first.invoiceNumber);
    expect(text.language).toBe('de-DE');
  });

  it('gives a licence manager the licensed persons names only', async () => {
    // The third persona manages (LV) a company licence.
    const manager = personas(home)[2];
    const { session, linkToken } = await requestExport(home, manager.email);
    const files = filesOf((await fetchZip(home, session, linkToken)).bytes);
    const licences = jsonOf(files, 'licences.json');
    expect(licences.managed.length).toBeGreaterThan(0);
    for (const licence of licences.managed) {
      expect(Object.keys(licence)).not.toContain('email');
      expect(Object.keys(licence)).not.toContain('businessPartner');
      expect(JSON.stringify(licence)).not.toMatch(/@/);
    }
    const seats = await db.query<{ email: string }>(
      `select email from licenses where tenant_id = $1 and email <> $2`,
      [home.id, manager.email],
    );
    for (const seat of seats) expect(textOf(files)).not.toContain(seat.email);
  });

  it("never holds another persona's data: two demo users, each export without the other", async () => {
    const [a, b] = personas(home);
    const exportOf = async (email: string) => {
      const { session, linkToken } = await requestExport(home, email);
      return textOf(filesOf((await fetchZip(home, session, linkToken)).bytes));
    };
    const [textA, textB] = [await exportOf(a.email), await exportOf(b.email)];
    const [markersA, markersB] = [await markersOf(home, a.email), await markersOf(home, b.email)];
    expect(markersA.length).toBeGreaterThan(2);
    for (const marker of markersA) expect(textA, `A's own ${marker}`).toContain(marker);
    for (const marker of markersB) expect(textA, `B's ${marker} in A's export`).not.toContain(marker);
    for (const marker of markersA) expect(textB, `A's ${marker} in B's export`).not.toContain(marker);
  });
});

describe('the link', () => {
  it('expires after 24 hours', async () => {
    const persona = personas(home)[0];
    const { linkToken } = await requestExport(home, 'expiry@export.example');
    const saved = clock;
    try {
      clock = new Date(saved.getTime() + 24 * 3600_000 - 60_000);
      const session = await sessionFor(home, 'expiry@export.example');
      expect((await fetchZip(home, session, linkToken)).status).toBe(200);
      clock = new Date(saved.getTime() + 24 * 3600_000 + 1000);
      const later = await sessionFor(home, 'expiry@export.example');
      const expired = await fetchZip(home, later, linkToken);
      expect(expired.status).toBe(404);
      expect(JSON.parse(expired.bytes.toString('utf8')).error.code).toBe('not_found');
    } finally {
      clock = saved;
    }
    expect(persona).toBeDefined();
  });

  it('opens nothing for another account, without a session, or with a guessed token', async () => {
    const [owner, stranger] = personas(home);
    const { linkToken } = await requestExport(home, 'forwarded@export.example');
    expect(owner).toBeDefined();
    const strangerSession = await sessionFor(home, stranger.email);
    expect((await fetchZip(home, strangerSession, linkToken)).status).toBe(404);
    expect((await download(`${baseUrl}/t/${home.id}/api${downloadPath(linkToken)}`, {})).status).toBe(401);
    const ownerSession = await sessionFor(home, 'forwarded@export.example');
    expect((await fetchZip(home, ownerSession, newSecretToken())).status).toBe(404);
  });

  it("is refused on another tenant's host, with either tenant's session", async () => {
    const email = personas(home)[0].email;
    const { session, linkToken } = await requestExport(home, 'hosts@export.example');
    expect(email).toBeDefined();
    // The home tenant's session on the other tenant's host: not a session there at all.
    const onOtherHost = await download(`${baseUrl}/api${downloadPath(linkToken)}`, {
      host: `${other.id}.test`,
      'x-auth-token': session,
    });
    expect(onOtherHost.status).toBe(401);
    // The same address signed in on the other tenant: that account has no such export.
    const otherSession = await sessionFor(other, 'hosts@export.example');
    const otherAccount = await download(`${baseUrl}/api${downloadPath(linkToken)}`, {
      host: `${other.id}.test`,
      'x-auth-token': otherSession,
    });
    expect(otherAccount.status).toBe(404);
    // On its own host it works.
    const ownHost = await download(`${baseUrl}/api${downloadPath(linkToken)}`, {
      host: `${home.id}.test`,
      'x-auth-token': session,
    });
    expect(ownHost.status).toBe(200);
  });
});

describe("the README and the tenant's own words", () => {
  const zipOf = async (tenant: ServerTenant, email: string, locale: 'de-DE' | 'en-GB') => {
    const { session, linkToken } = await requestExport(tenant, email, locale);
    const zip = await fetchZip(tenant, session, linkToken);
    expect(zip.status).toBe(200);
    return filesOf(zip.bytes);
  };

  it('gives the privacy section in German: controller, contacts, purposes, recipients, retention, rights, authority', async () => {
    const readme = strFromU8((await zipOf(home, personas(home)[0].email, 'de-DE'))['README.txt']);
    for (const words of [
      `Ihre Daten bei ${home.name}`,
      'Seite „Kontodaten“',
      'Export Verlag GmbH\nHafenstraße 7\n20457 Hamburg\nDeutschland\n',
      'Fragen und Anträge zum Datenschutz: datenschutz@export.example',
      'Datenschutzbeauftragte(r): dsb@export.example',
      'Zweck: Ihr Abo liefern.',
      'Empfänger: unsere Zusteller.',
      'Speicherdauer: zehn Jahre.',
      'Ihre Rechte',
      'Art. 17',
      'Art. 21',
      'Hamburgische Datenschutzbehörde\nLudwig-Erhard-Straße 22\n20459 Hamburg\nhttps://datenschutz-hamburg.de',
      'schreiben Sie bitte an datenschutz@export.example',
    ])
      expect(readme, words).toContain(words);
    expect(readme).not.toMatch(/Purpose|Your rights|Recipients/);
    // The time of the copy as the subscriber reads dates, not as a machine writes them.
    expect(readme).toMatch(/Stand \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} \(UTC\)/);
  });

  it('gives the same in English when asked in English', async () => {
    const readme = strFromU8((await zipOf(home, personas(home)[0].email, 'en-GB'))['README.txt']);
    for (const words of [
      // The title underlined to its own length, whatever the publisher's name.
      `Your data from ${home.name}\n${'='.repeat(`Your data from ${home.name}`.length)}\n\n`,
      'the page "Account details"',
      // The tenant file's one country line, in the README's language.
      'Export Verlag GmbH\nHafenstraße 7\n20457 Hamburg\nGermany\n',
      'Data protection questions and requests: datenschutz@export.example',
      'Data protection officer: dsb@export.example',
      'Purpose: delivering your subscription.',
      'Recipients: our couriers.',
      'Retention: ten years.',
      'Your rights',
      'Where to complain (GDPR Art. 77)',
      'Hamburgische Datenschutzbehörde',
    ])
      expect(readme, words).toContain(words);
    expect(readme).toMatch(/as of \d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{2}:\d{2} \(UTC\)/);
    expect(readme).not.toMatch(/Zweck|Ihre Rechte|Empfänger/);
  });

  it('without a privacy section names the tenant, its customer service and general wording', async () => {
    const readme = strFromU8((await zipOf(other, personas(other)[0].email, 'en-GB'))['README.txt']);
    expect(readme).toContain(`The controller (GDPR Art. 4(7)):\n\n${other.name}`);
    expect(readme).toContain('Data protection questions and requests: leser@export.example');
    expect(readme).toContain('To perform your subscriptions and orders');
    expect(readme).toContain('You may complain to a data protection supervisory authority');
    expect(readme).not.toContain('Data protection officer');
  });

  it("names the opt-ins by the tenant's labels in the asked language, else by the order system's words", async () => {
    const email = personas(home)[0].email;
    for (const [locale, letter, post] of [
      ['de-DE', 'Der Export-Brief', 'Angebote per Post'],
      ['en-GB', 'The Export Letter', 'Offers by post'],
    ] as const) {
      const optIns = jsonOf(await zipOf(home, email, locale), 'opt-ins.json') as Array<{
        type: string;
        description: string;
      }>;
      expect(optIns.length, locale).toBeGreaterThan(0);
      const named = (type: string) => optIns.find((optIn) => optIn.type === type)?.description;
      expect(named('NEWSLETTER'), locale).toBe(letter);
      expect(named('POST'), locale).toBe(post);
      expect(JSON.stringify(optIns), locale).not.toContain('E-Mail-Newsletter mit Neuigkeiten');
      expect(JSON.stringify(optIns), locale).not.toContain('E-mail newsletter with news');
    }
  });

  it('is offered on the addresses page of a tenant without the account details page', async () => {
    const persona = personas(noProfile)[0];
    const { link, session, linkToken } = await requestExport(noProfile, persona.email, 'de-DE');
    expect(link).toContain(`/t/${noProfile.id}/business-partners?dataExport=`);
    expect(link).toMatch(/&lang=de$/);
    const zip = await fetchZip(noProfile, session, linkToken);
    expect(zip.status).toBe(200);
    const readme = strFromU8(filesOf(zip.bytes)['README.txt']);
    expect(readme).toContain('Seite „Meine Adressen“');
    expect(readme).toContain('Export Verlag GmbH');
  });
});
