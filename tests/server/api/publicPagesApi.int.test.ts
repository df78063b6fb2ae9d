import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { CONTACT_MESSAGES_PER_CLIENT } from '../../../server/contact/contactService';
import { seedDemoData } from '../../../server/seed';
import { cataloguePublications } from '../../../server/seed/catalogue';
import { listContactMessages } from '../../../server/store/contactMessageStore';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Database } from '../../../server/db/database';
import { calendarWindow } from '../../../engine/domain/issueCalendar';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';
import {
  DISGUISED_PNG,
  linkedSubscription,
  oversizedPng,
  TINY_PDF,
  TINY_PNG,
  unlinkedSubscription,
} from '../../support/publicPagesFixtures';

function pagesTenant(id: string, overrides: Record<string, unknown> = {}): ServerTenant {
  const [, digital] = cataloguePublications(id);
  return makeServerTenant({
    id,
    name: `Tenant ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    features: ['faq', 'contact-form', 'issue-calendar', 'opt-ins'],
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    contact: {
      email: `service@${id}.example`,
      fallbackEmail: `help@${id}.example`,
      fallbackPhone: '+49 30 1',
    },
    faq: {
      categories: [{ id: 'delivery', title: { 'de-DE': 'Zustellung' } }],
      entries: [
        {
          id: 'open-question',
          category: 'delivery',
          public: true,
          title: { 'de-DE': 'Offen' },
          content: { 'de-DE': '<p>Antwort<script>alert(1)</script></p>' },
        },
        { id: 'members-only', title: { 'de-DE': 'Nur für Kunden' }, content: { 'de-DE': '<p>Intern</p>' } },
      ],
    },
    contactForm: {
      requireSalutation: true,
      activities: [
        {
          activity: 'DELIVERY',
          name: { 'de-DE': 'Zustellung' },
          requiresSubscription: true,
          supportsImageUpload: true,
          showOptInCheckbox: true,
        },
        { activity: 'GENERAL', name: { 'de-DE': 'Allgemein' }, allowMissingOrderNumber: true },
        { activity: 'CANCEL', name: { 'de-DE': 'Kündigen' }, linkedPage: '/cancellation' },
        {
          activity: 'REVOKE',
          name: { 'de-DE': 'Widerruf' },
          visibility: 'authenticated',
          requiresSubscription: true,
        },
      ],
    },
    issueCalendar: { mode: 'any', blacklistedPublications: [digital.publication] },
    ...overrides,
  });
}

const outbox = createTestOutbox('portal-pages-outbox-');
const today = new Date();
const tenantA = pagesTenant(uniqueTenantId('pages-a'));
const tenantOff = pagesTenant(uniqueTenantId('pages-off'), { features: [] });
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let userEmail: string;

async function anonymous(tenant: ServerTenant = tenantA) {
  const client = browserLikeClient(baseUrl, `/t/${tenant.id}/api`);
  await client.get('/faq'); // picks up the XSRF cookie, as loading the page would
  return client;
}

async function signedIn(email: string) {
  return (await signInByMagicLink(outbox, { baseUrl, tenantId: tenantA.id, email, firstPath: '/faq' }))
    .client;
}

const anonymousMessage = (overrides: Record<string, unknown> = {}) => ({
  activity: 'GENERAL',
  orderNumber: '4000123456',
  contactDetails: { salutation: '0001', firstName: 'Erika', lastName: 'Muster', email: 'erika@example.org' },
  message: 'Bitte rufen Sie mich an.',
  ...overrides,
});

beforeAll(async () => {
  db = await getTestDatabase();
  const logins = await seedDemoData(db, [tenantA as never, tenantOff as never], { today });
  userEmail = logins.find((login) => login.tenantId === tenantA.id)!.email;
  const { app } = createApp({
    db,
    tenants: [tenantA, tenantOff],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    // Clients told apart by X-Forwarded-For (without it every request is 127.0.0.1's).
    trustProxy: ['loopback'],
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

describe('GET /faq', () => {
  it('gives anonymous visitors only the public entries, sanitized', async () => {
    const response = await (await anonymous()).get('/faq');
    expect(response.status).toBe(200);
    expect(response.body.entries.map((entry: { id: string }) => entry.id)).toEqual(['open-question']);
    expect(response.body.entries[0].content['de-DE']).toBe('<p>Antwort</p>');
  });

  it('gives signed-in users every entry, uncategorised ones under general', async () => {
    const response = await (await signedIn(userEmail)).get('/faq');
    expect(response.body.entries.map((entry: { id: string }) => entry.id)).toEqual([
      'open-question',
      'members-only',
    ]);
    expect(response.body.entries[1]).toMatchObject({ category: 'general', public: false });
  });

  it('answers 401 for a dead session rather than quietly showing the public list', async () => {
    const client = await anonymous();
    client.setAccessToken('forged');
    expect((await client.get('/faq')).status).toBe(401);
  });

  it('serves edited entries at once when the tenant is reloaded into the same object (portal dev)', async () => {
    const client = await anonymous();
    expect((await client.get('/faq')).body.entries[0].content['de-DE']).toBe('<p>Antwort</p>');
    const faq = tenantA.faq!;
    const original = faq;
    const edited = structuredClone(original);
    edited.entries[0].content['de-DE'] = '<p>Neue Antwort</p>';
    try {
      Object.assign(tenantA, { faq: edited });
      expect((await client.get('/faq')).body.entries[0].content['de-DE']).toBe('<p>Neue Antwort</p>');
    } finally {
      Object.assign(tenantA, { faq: original });
    }
    expect((await client.get('/faq')).body.entries[0].content['de-DE']).toBe('<p>Antwort</p>');
  });

  it('is a 403 feature_disabled for a tenant without the FAQ', async () => {
    const response = await (await anonymous(tenantOff)).get('/faq');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('feature_disabled');
  });
});

describe('issue calendar calls', () => {
  const [print, digital] = cataloguePublications(tenantA.id);

  it('lists publications with cover, description and current issue, never a blacklisted one', async () => {
    const response = await (await anonymous()).get('/issue-calendar/publications');
    expect(response.status).toBe(200);
    const codes = response.body.map((p: { publication: string }) => p.publication);
    expect(codes).toContain(print.publication);
    expect(codes).not.toContain(digital.publication);
    expect(response.body[0]).toEqual(
      expect.objectContaining({
        clientId: print.clientId,
        description: print.description,
        coverImageUrl: expect.any(String),
        currentIssue: expect.any(String),
      }),
    );
  });

  it('lists the issues on sale from today to one month ahead', async () => {
    const response = await (
      await anonymous()
    ).get(`/issue-calendar/publications/${print.clientId}/${print.publication}/upcoming-issues`);
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
    const { dateFrom, dateTo } = calendarWindow(new Date());
    for (const issue of response.body) {
      expect(issue.dateOfFirstSale >= dateFrom && issue.dateOfFirstSale <= dateTo).toBe(true);
    }
  });

  it('refuses the issues of a blacklisted publication or a wrong client with a 404', async () => {
    const client = await anonymous();
    expect(
      (
        await client.get(
          `/issue-calendar/publications/${digital.clientId}/${digital.publication}/upcoming-issues`,
        )
      ).status,
    ).toBe(404);
    expect(
      (await client.get(`/issue-calendar/publications/999/${print.publication}/upcoming-issues`)).status,
    ).toBe(404);
  });

  it('gives a signed-in user the upcoming issues of an own subscription, tagged with it', async () => {
    const client = await signedIn(userEmail);
    const subscriptions = (await client.get('/subscriptions')).body as Array<{
      id: string;
      orderStatus: string;
      isTimebased: boolean;
      publication: string;
      roles: string[];
    }>;
    const eligible = subscriptions.find(
      (s) =>
        ['A', 'IZ', 'AK'].includes(s.orderStatus) &&
        !s.isTimebased &&
        s.publication === print.publication &&
        !s.roles.every((r) => r === 'LV'),
    );
    expect(eligible).toBeDefined();
    const window = calendarWindow(new Date());
    const response = await client.get(
      `/subscriptions/${eligible!.id}/upcoming-issues?dateFrom=${window.dateFrom}&dateTo=${window.dateTo}&dateType=1`,
    );
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
    expect(
      response.body.every((issue: { subscriptionId: string }) => issue.subscriptionId === eligible!.id),
    ).toBe(true);
  });

  it('refuses a bad date, an unknown subscription and an anonymous caller', async () => {
    const client = await signedIn(userEmail);
    const id = ((await client.get('/subscriptions')).body as Array<{ id: string }>)[0].id;
    const bad = await client.get(`/subscriptions/${id}/upcoming-issues?dateFrom=2025-13-40`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('query/dateFrom');
    expect((await client.get('/subscriptions/999-nope/upcoming-issues')).status).toBe(404);
    expect((await (await anonymous()).get(`/subscriptions/${id}/upcoming-issues`)).status).toBe(401);
  });

  it('lists the issues of an own subscription in any asked window with the same checks (GET /subscriptions/{id}/issues)', async () => {
    const client = await signedIn(userEmail);
    const subscriptions = (await client.get('/subscriptions')).body as Array<{
      id: string;
      orderStatus: string;
      isTimebased: boolean;
      publication: string;
    }>;
    const eligible = subscriptions.find(
      (s) =>
        ['A', 'IZ', 'AK'].includes(s.orderStatus) && !s.isTimebased && s.publication === print.publication,
    );
    expect(eligible).toBeDefined();
    const { dateFrom, dateTo } = calendarWindow(new Date());
    const response = await client.get(
      `/subscriptions/${eligible!.id}/issues?dateFrom=${dateFrom}&dateTo=${dateTo}&dateType=1`,
    );
    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
    expect(
      response.body.every(
        (issue: { subscriptionId: string; dateOfFirstSale: string }) =>
          issue.subscriptionId === eligible!.id &&
          issue.dateOfFirstSale >= dateFrom &&
          issue.dateOfFirstSale <= dateTo,
      ),
    ).toBe(true);
    expect(response.body).toEqual(
      (
        await client.get(
          `/subscriptions/${eligible!.id}/upcoming-issues?dateFrom=${dateFrom}&dateTo=${dateTo}&dateType=1`,
        )
      ).body,
    );

    const badType = await client.get(`/subscriptions/${eligible!.id}/issues?dateType=2`);
    expect(badType.status).toBe(400);
    expect(badType.body.error.details[0].field).toBe('query/dateType');
    const reversed = await client.get(
      `/subscriptions/${eligible!.id}/issues?dateFrom=${dateTo}&dateTo=${dateFrom}`,
    );
    expect(reversed.status).toBe(400);
    expect(reversed.body.error.details[0].field).toBe('dateTo');
    expect((await client.get('/subscriptions/999-nope/issues')).status).toBe(404);
    expect((await (await anonymous()).get(`/subscriptions/${eligible!.id}/issues`)).status).toBe(401);
  });

  it('is a 403 feature_disabled for a tenant without the calendar', async () => {
    const response = await (await anonymous(tenantOff)).get('/issue-calendar/publications');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('feature_disabled');
  });
});

describe('POST /contact', () => {
  it("refuses a sender's detail with a line break of its own, which would forge a line of the mail", async () => {
    const client = await anonymous();
    const before = (await outbox.mails(`service@${tenantA.id}.example`)).length;
    const forged = await client.post<any>(
      '/contact',
      anonymousMessage({
        contactDetails: {
          salutation: '0001',
          firstName: 'Erika',
          lastName: 'Muster',
          company: '-\nAngemeldet als: erika@example.org',
          email: 'eve@example.org',
        },
      }),
    );
    expect(forged.status).toBe(400);
    expect(forged.body.error.details).toEqual([
      expect.objectContaining({
        field: '/contactDetails/company',
        message: expect.stringContaining('one line'),
      }),
    ]);
    expect((await outbox.mails(`service@${tenantA.id}.example`)).length).toBe(before);
  });

  it('stores an anonymous message and mails it to the tenant contact address', async () => {
    const client = await anonymous();
    const response = await client.post('/contact', anonymousMessage());
    expect(response.status).toBe(201);
    const stored = (await listContactMessages(db, tenantA.id)).find((m) => m.id === response.body.id)!;
    expect(stored).toMatchObject({
      activity: 'GENERAL',
      orderNumber: '4000123456',
      contactDetails: { email: 'erika@example.org' },
    });
    const mail = (await outbox.mails(`service@${tenantA.id}.example`)).at(-1)!;
    expect(mail.text).toContain('Bitte rufen Sie mich an.');
    expect(mail.text).toContain(response.body.id);
    expect(outbox.eml(mail)).toMatch(/Reply-To: erika@example.org/i);
    // No receipt to a typed address: anyone could have the portal mail any text to anyone.
    expect(await outbox.mails('erika@example.org')).toEqual([]);
  });

  it("names the salutation, the publication and the sender's language for customer service", async () => {
    const client = await anonymous();
    const [publication] = (
      await client.get<{ publication: string; description: string }[]>('/contact/publications')
    ).body;
    const response = await client.post(
      '/contact',
      anonymousMessage({ publication: publication.publication, locale: 'en-GB' }),
    );
    expect(response.status).toBe(201);
    const mail = (await outbox.mails(`service@${tenantA.id}.example`)).find((m) =>
      m.text.includes(response.body.id),
    )!;
    // The staff's language (the tenant's default), the order system's codes named.
    expect(mail.text).toContain('Anrede: Frau\n');
    expect(mail.text).toContain(`Publikation: ${publication.description} (${publication.publication})\n`);
    expect(mail.text).toContain('Sprache des Absenders: Englisch\n');
  });

  it("counts an IPv6 client's messages by its /64, as every per-client budget: one line's addresses are one sender", async () => {
    const client = await anonymous();
    for (let i = 1; i <= CONTACT_MESSAGES_PER_CLIENT; i++)
      expect(
        (
          await client.post('/contact', anonymousMessage(), {
            'x-forwarded-for': `2001:db8:7:7::${i.toString(16)}`,
          })
        ).status,
      ).toBe(201);
    const over = await client.post<any>('/contact', anonymousMessage(), {
      'x-forwarded-for': '2001:db8:7:7:ffff:1:2:3',
    });
    expect([over.status, over.body.error.code]).toEqual([429, 'rate_limited']);
    expect(
      (await client.post('/contact', anonymousMessage(), { 'x-forwarded-for': '2001:db8:7:8::1' })).status,
    ).toBe(201);
  });

  it('lists every missing field of the anonymous form at once', async () => {
    const response = await (await anonymous()).post('/contact', { activity: 'DELIVERY' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    const fields = response.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        '/message',
        '/contactDetails/firstName',
        '/contactDetails/lastName',
        '/contactDetails/email',
        '/contactDetails/salutation',
        '/orderNumber',
      ]),
    );
  });

  it('accepts a missing order number only for activities that allow it', async () => {
    const client = await anonymous();
    expect(
      (await client.post('/contact', anonymousMessage({ orderNumber: undefined, missingOrderNumber: true })))
        .status,
    ).toBe(201);
    const refused = await client.post(
      '/contact',
      anonymousMessage({ activity: 'DELIVERY', orderNumber: undefined, missingOrderNumber: true }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { field: string }) => d.field)).toContain(
      '/missingOrderNumber',
    );
  });

  it('requires the company for a company salutation and refuses a short order number', async () => {
    const response = await (
      await anonymous()
    ).post(
      '/contact',
      anonymousMessage({
        orderNumber: '1234',
        contactDetails: { salutation: '0003', firstName: 'A', lastName: 'B', email: 'a@b.example' },
      }),
    );
    expect(response.body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: '/contactDetails/company', code: 'required' }),
        expect.objectContaining({ field: '/orderNumber', code: 'invalid' }),
      ]),
    );
  });

  it('hides authenticated-only activities from anonymous visitors', async () => {
    const response = await (await anonymous()).post('/contact', anonymousMessage({ activity: 'REVOKE' }));
    expect(response.body.error.details).toEqual([
      expect.objectContaining({ field: '/activity', code: 'invalid' }),
    ]);
  });

  it('attaches a real png and records its type', async () => {
    const client = await anonymous();
    const image = { filename: 'damage.png', mimeType: 'image/png', data: TINY_PNG.toString('base64') };
    const response = await client.post('/contact', anonymousMessage({ activity: 'DELIVERY', image }));
    expect(response.status).toBe(201);
    const stored = (await listContactMessages(db, tenantA.id)).find((m) => m.id === response.body.id)!;
    expect(stored.image).toEqual({ filename: 'damage.png', mimeType: 'image/png', size: TINY_PNG.length });
    // Mails of earlier tests may leave the queue in the same round: pick this message's mail.
    const mail = (await outbox.mails(`service@${tenantA.id}.example`)).find((m) =>
      m.text.includes(response.body.id),
    )!;
    expect(outbox.eml(mail)).toMatch(/Content-Type: image\/png; name=damage.png/);
  });

  it("passes a real pdf on under its type's extension, never one a mail client would run", async () => {
    const client = await anonymous();
    for (const [filename, passedOn] of [
      ['scan.hta', 'scan.pdf'],
      ['Zustellfoto.html', 'Zustellfoto.pdf'],
      ['.exe', 'attachment.pdf'],
      ['Beleg.PDF', 'Beleg.PDF'],
    ]) {
      const image = { filename, mimeType: 'application/pdf', data: TINY_PDF.toString('base64') };
      const response = await client.post('/contact', anonymousMessage({ activity: 'DELIVERY', image }));
      expect(response.status).toBe(201);
      const stored = (await listContactMessages(db, tenantA.id)).find((m) => m.id === response.body.id)!;
      expect(stored.image?.filename).toBe(passedOn);
      const mail = (await outbox.mails(`service@${tenantA.id}.example`)).find((m) =>
        m.text.includes(response.body.id),
      )!;
      expect(outbox.eml(mail)).toContain(`filename=${passedOn}`);
      if (filename !== passedOn) expect(outbox.eml(mail)).not.toContain(`filename=${filename}`);
    }
  });

  it('refuses a file whose bytes are not the type its name and mime type claim', async () => {
    const client = await anonymous();
    const disguised = {
      filename: 'photo.png',
      mimeType: 'image/png',
      data: DISGUISED_PNG.toString('base64'),
    };
    const response = await client.post(
      '/contact',
      anonymousMessage({ activity: 'DELIVERY', image: disguised }),
    );
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      expect.objectContaining({ field: '/image', code: 'file_type' }),
    ]);
    const pdfAsPng = { filename: 'scan.png', mimeType: 'image/png', data: TINY_PDF.toString('base64') };
    expect(
      (await client.post('/contact', anonymousMessage({ activity: 'DELIVERY', image: pdfAsPng }))).status,
    ).toBe(400);
  });

  it('refuses a file over 2097152 bytes and an upload the activity does not take', async () => {
    const client = await anonymous();
    const big = { filename: 'big.png', mimeType: 'image/png', data: oversizedPng().toString('base64') };
    const response = await client.post('/contact', anonymousMessage({ activity: 'DELIVERY', image: big }));
    expect(response.status).toBe(400);
    expect(response.body.error.details).toEqual([
      expect.objectContaining({ field: '/image', code: 'file_too_large' }),
    ]);
    const small = { filename: 'a.pdf', mimeType: 'application/pdf', data: TINY_PDF.toString('base64') };
    const notTaken = await client.post('/contact', anonymousMessage({ image: small }));
    expect(notTaken.body.error.details).toEqual([
      expect.objectContaining({ field: '/image', code: 'not_allowed' }),
    ]);
  });

  it('takes a signed-in user own subscription and refuses someone else', async () => {
    const client = await signedIn(userEmail);
    const [subscription] = (await client.get('/subscriptions')).body as Array<{
      id: string;
      orderNumber: string;
    }>;
    const response = await client.post('/contact', {
      activity: 'REVOKE',
      subscriptionId: subscription.id,
      message: 'Ich möchte weiterlesen.',
    });
    expect(response.status).toBe(201);
    const stored = (await listContactMessages(db, tenantA.id)).find((m) => m.id === response.body.id)!;
    expect(stored).toMatchObject({
      subscriptionId: subscription.id,
      orderNumber: subscription.orderNumber,
      contactDetails: { email: userEmail },
    });
    // The sender has a record of it at the account's own address, in the sender's language.
    const receipt = (await outbox.mails(userEmail)).find((m) => m.text.includes(response.body.id))!;
    expect(receipt.subject).toMatch(/^Wir haben Ihre Nachricht erhalten – /);
    expect(receipt.text).toContain(`(Auftragsnummer ${subscription.orderNumber})`);
    expect(receipt.text).toContain('Ihre Nachricht:\nIch möchte weiterlesen.\n');
    const missing = await client.post('/contact', { activity: 'REVOKE', message: 'x' });
    expect(missing.body.error.details).toEqual([
      expect.objectContaining({ field: '/subscriptionId', code: 'required' }),
    ]);
    const foreign = await client.post('/contact', {
      activity: 'REVOKE',
      subscriptionId: '101-not-mine',
      message: 'x',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details).toEqual({ status: 'not_found' });
  });

  it("names the subscription in the sender's language in the receipt, and in the staff's in theirs", async () => {
    const client = await signedIn(userEmail);
    type Listed = { id: string; displayName: string };
    const german = (await client.get('/subscriptions', { 'accept-language': 'de-DE' })).body as Listed[];
    const english = (await client.get('/subscriptions', { 'accept-language': 'en-GB' })).body as Listed[];
    const named = english.find((s) => german.find((g) => g.id === s.id)?.displayName !== s.displayName)!;
    // The demo's products have a name per language: the test needs one that differs.
    expect(named).toBeDefined();
    const inGerman = german.find((g) => g.id === named.id)!.displayName;
    const response = await client.post(
      '/contact',
      {
        activity: 'REVOKE',
        subscriptionId: named.id,
        message: 'I would like to keep reading.',
        locale: 'en-GB',
      },
      { 'accept-language': 'en-GB' },
    );
    expect(response.status).toBe(201);
    const receipt = (await outbox.mails(userEmail)).find((m) => m.text.includes(response.body.id))!;
    expect(receipt.subject).toMatch(/^We have received your message – /);
    expect(receipt.text).toContain(`${named.displayName} (order number`);
    expect(receipt.text).not.toContain(`${inGerman} (order number`);
    const staff = (await outbox.mails(`service@${tenantA.id}.example`)).find((m) =>
      m.text.includes(response.body.id),
    )!;
    expect(staff.text).toContain(`${inGerman} (`);
    expect(staff.text).not.toContain(named.displayName);
  });

  it('refuses the opt-in for an activity that does not offer it', async () => {
    const response = await (await anonymous()).post('/contact', anonymousMessage({ optIn: true }));
    expect(response.body.error.details).toEqual([
      expect.objectContaining({ field: '/optIn', code: 'not_allowed' }),
    ]);
  });

  it('takes the opt-in of a signed-in sender only: an anonymous sender’s address is not proven', async () => {
    const stranger = await (
      await anonymous()
    ).post('/contact', anonymousMessage({ activity: 'DELIVERY', optIn: true, publication: undefined }));
    expect(stranger.status).toBe(400);
    expect(stranger.body.error.details).toContainEqual(
      expect.objectContaining({ field: '/optIn', code: 'not_allowed' }),
    );
    const [{ n }] = await db.query<{ n: number }>(
      `select count(*)::int as n from contact_messages where tenant_id = $1 and contact_details->>'email' = 'erika@example.org' and opt_in`,
      [tenantA.id],
    );
    expect(n).toBe(0);
    const client = await signedIn(userEmail);
    const own = (await client.get('/subscriptions')).body as Array<{ id: string }>;
    const sent = await client.post('/contact', {
      activity: 'DELIVERY',
      subscriptionId: own[0].id,
      message: 'Das Heft fehlt.',
      optIn: true,
    });
    expect(sent.status).toBe(201);
  });

  it('refuses unknown fields and a tenant without the contact form', async () => {
    const unknown = await (await anonymous()).post('/contact', anonymousMessage({ attachment: 'x' }));
    expect(unknown.status).toBe(400);
    const off = await (await anonymous(tenantOff)).post('/contact', anonymousMessage());
    expect(off.status).toBe(403);
    expect(off.body.error.code).toBe('feature_disabled');
  });
});

describe('POST /login/contact-form', () => {
  /**
   * Sets (or clears) the e-mail on record of the partners of an order number with that zip code, as
   * their only one: without a WW entry among the ways to reach them to fall back on.
   */
  async function setAddressOnRecord(
    target: { orderNumber: string; zipcode: string },
    address: string | null,
  ) {
    await db.query(
      `update business_partners bp set email_address = $4, details = bp.details - 'listOfCommunication'
         from subscriptions s join subscription_roles sr on sr.tenant_id = s.tenant_id and sr.subscription_id = s.id
        where s.tenant_id = $1 and s.order_number = lpad($2, 10, '0') and bp.tenant_id = sr.tenant_id and bp.bp_number = sr.bp_number and bp.zipcode = $3`,
      [tenantA.id, target.orderNumber, target.zipcode, address],
    );
  }
  const userCount = async () =>
    Number(
      (
        await db.query<{ n: number }>(`select count(*)::int as n from users where tenant_id = $1`, [
          tenantA.id,
        ])
      )[0].n,
    );

  it('mails a sign-in link to the address on record; the link opens a partial session on that one subscription and its linked page', async () => {
    const client = await anonymous();
    const target = unlinkedSubscription(tenantA as never, today);
    const onRecord = `record-${Date.now()}@example.org`;
    await setAddressOnRecord(target, onRecord);
    const users = await userCount();
    const first = await client.post('/login/contact-form', {
      orderNumber: target.orderNumber,
      zipcode: ` ${target.zipcode} `.replace(/^ | $/g, ''),
      activity: 'CANCEL',
    });
    expect(first.status).toBe(400);
    expect(first.body.error.details).toEqual({ status: 'confirm_email', maskedEmail: 'r***@e***.org' });
    expect(await userCount()).toBe(users); // nothing is created before the link is opened
    const mail = (await outbox.mails(onRecord)).at(-1)!;
    const token = new URL(/https?:\/\/\S+/.exec(mail.text)![0]).searchParams.get('p')!;
    const login = await client.post('/login/token', { token });
    expect(login.status).toBe(200);
    client.setAccessToken(login.body.accessToken);
    const mine = await client.get('/subscriptions');
    expect(mine.body.map((s: { orderNumber: string }) => s.orderNumber)).toEqual([target.orderNumber]);
    const subscriptionId = mine.body[0].id;
    // The linked page /cancellation is the account's; the session is the subscription's, so the
    // link leads to that subscription's cancellation, a page the partial session may open.
    expect(login.body).toMatchObject({
      loginSource: 'contact-form',
      user: { email: onRecord },
      returnTo: `/subscriptions/${subscriptionId}/cancellation?returnTo=contact`,
    });
    // The partial session acts on its one subscription only, and may read its own user id.
    const ownIssues = await client.get(`/subscriptions/${subscriptionId}/upcoming-issues`);
    expect(ownIssues.body?.error?.code).not.toBe('partial_login');
    expect((await client.get('/subscriptions/101-someone-else/upcoming-issues')).body.error.code).toBe(
      'partial_login',
    );
    expect((await client.get('/user-id')).body).toEqual({ userId: login.body.user.id });
    const otherMessage = await client.post('/contact', {
      activity: 'REVOKE',
      subscriptionId: 'not-this-one',
      message: 'x',
    });
    expect(otherMessage.body.error.details).toEqual({ status: 'not_found' });
    // Now linked: a second visitor with the same order number gets a link sent to that account again.
    const again = await (
      await anonymous()
    ).post('/login/contact-form', { orderNumber: target.orderNumber, zipcode: target.zipcode });
    expect(again.body.error.details).toEqual({ status: 'confirm_email', maskedEmail: 'r***@e***.org' });
  });

  it('answers not_found, verification_failed and no_email_on_record as link results in a 400, and a linked subscription gets its link too', async () => {
    const client = await anonymous();
    const notFound = await client.post('/login/contact-form', {
      orderNumber: '4999999999',
      zipcode: '12345',
    });
    expect(notFound.status).toBe(400);
    expect(notFound.body.error).toMatchObject({ code: 'link_failed', details: { status: 'not_found' } });
    const target = unlinkedSubscription(tenantA as never, today, 1);
    const wrongZip = await client.post('/login/contact-form', {
      orderNumber: target.orderNumber,
      zipcode: '00000x',
    });
    expect(wrongZip.body.error.details).toEqual({ status: 'verification_failed', method: 'zip' });
    await setAddressOnRecord(target, null);
    const users = await userCount();
    const nothing = await client.post('/login/contact-form', {
      orderNumber: target.orderNumber,
      zipcode: target.zipcode,
    });
    expect(nothing.body.error.details).toEqual({ status: 'no_email_on_record' });
    expect(await userCount()).toBe(users);
    const linked = linkedSubscription(tenantA as never, today);
    const toAccount = await client.post('/login/contact-form', {
      orderNumber: linked.orderNumber,
      zipcode: linked.zipcode,
    });
    expect(toAccount.body.error.details).toMatchObject({ status: 'confirm_email' });
    expect(toAccount.body.error.details.maskedEmail).toMatch(/^.\*\*\*@/);
    expect((await outbox.mails(linked.email)).at(-1)!.text).toMatch(/login\?p=/);
  });

  it('takes no e-mail from the visitor: an address in the body is refused, never made an account', async () => {
    // An e-mail typed here used to open an account that spoke for the partner: a typed address proves nothing.
    const target = unlinkedSubscription(tenantA as never, today, 1);
    const response = await (
      await anonymous()
    ).post('/login/contact-form', {
      orderNumber: target.orderNumber,
      zipcode: target.zipcode,
      email: userEmail,
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_failed');
    expect(response.body.accessToken).toBeUndefined();
  });

  it('limits guesses of the zip code per order number with a 429', async () => {
    const client = await anonymous();
    const target = unlinkedSubscription(tenantA as never, today, 2);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      statuses.push(
        (
          await client.post('/login/contact-form', {
            orderNumber: target.orderNumber,
            zipcode: `9${attempt}`,
          })
        ).status,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const blocked = await client.post('/login/contact-form', {
      orderNumber: target.orderNumber,
      zipcode: target.zipcode,
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('rate_limited');
  });

  it('refuses a malformed order number and an activity without a linked page', async () => {
    const client = await anonymous();
    expect(
      (await client.post('/login/contact-form', { orderNumber: '12ab', zipcode: '1' })).body.error.code,
    ).toBe('validation_failed');
    const wrongActivity = await client.post('/login/contact-form', {
      orderNumber: '4000000000',
      zipcode: '1',
      activity: 'GENERAL',
    });
    expect(wrongActivity.body.error.details).toEqual([expect.objectContaining({ field: '/activity' })]);
  });
});
