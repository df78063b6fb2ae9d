/**
 * The calls of the orders page, the subscription page and the link flow (portal-core.md §2, §4, §6,
 * §7, §8), against the seeded demo data: answers, paging, once-a-day invoice requests, real PDFs,
 * download keys, and every refusal (404 not linked, 403 by feature flag or capability rule, 409).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { acknowledgeChange } from '../../../server/operator/changes/changeFeed';
import { seedDemoData } from '../../../server/seed';
import { buildDemoData } from '../../../server/seed/demoData';
import type { ServerTenant } from '../../../server/tenancy/tenantContext';
import type { Subscription } from '../../../schemas/generated/subscription';
import { createUser } from '../../../server/store/userStore';
import { linkPartnerToUser } from '../../../server/store/accountStore';
import { LinkRefused, linkSubscription } from '../../../server/link-subscription/linkSubscription';
import type { Database } from '../../../server/db/database';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, firstLink, signInByMagicLink } from '../../support/outbox';
import { fetchFile, pdfText } from '../documents/pdfText';
import { maskEmail, maskEmailName } from '../../../engine/domain/fieldRules';

const ALL_FEATURES = [
  'manual-registration',
  'payment-history',
  'invoice-request',
  'invoice-download',
  'issue-history',
  'issue-download',
  'purchase-order-download',
  'pending-orders',
  'gift-certificate',
  'cancellation',
  'shipping-status',
];

function tenant(id: string, features: string[], settings: Record<string, unknown> = {}): ServerTenant {
  return makeServerTenant({
    id,
    name: `Verlag ${id}`,
    hosts: [`${id}.test`],
    defaultLocale: 'de-DE',
    features,
    embedding: { isEmbedded: false, parentOrigins: [] },
    login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
    ...settings,
  });
}

const outbox = createTestOutbox('portal-orders-outbox-');
const full = tenant(uniqueTenantId('orders-full'), ALL_FEATURES, {
  linkSubscription: { askGiftQuestion: true, allowBpNumber: true },
  giftCertificate: { salesSources: ['GIFT'] },
  orderAttributes: {
    attributes: [
      { type: 'DELIVERY_NOTE', label: { 'de-DE': 'Hinweis' }, editable: true },
      { type: 'COSTS', label: { 'de-DE': 'Kosten' }, creatable: true },
      { type: 'DELIVERY_DAY', label: { 'de-DE': 'Liefertag' }, creatable: true, inputType: 'date' },
    ],
  },
  themeTokens: { colors: { primary: '#7a1f2b', onPrimary: '#ffffff' } },
});
const bare = tenant(uniqueTenantId('orders-bare'), []);
const merged = tenant(uniqueTenantId('orders-merge'), ['manual-registration'], {
  linkSubscription: { allowBpNumber: true },
});
let clock = new Date();
let baseUrl: string;
let close: () => Promise<void>;
let logins: Awaited<ReturnType<typeof seedDemoData>>;

const sessions = new Map<string, ReturnType<typeof browserLikeClient>>();

/** Signs in once per tenant and e-mail (sign-in requests are rate-limited) and reuses the session. */
async function signIn(t: ServerTenant, email: string) {
  const key = `${t.id}/${email}`;
  if (!sessions.has(key)) sessions.set(key, await newSession(t, email));
  return sessions.get(key)!;
}

async function newSession(t: ServerTenant, email: string) {
  return (await signInByMagicLink(outbox, { baseUrl, tenantId: t.id, email })).client;
}

const isProcurement = (email: string) => email.startsWith('procurement@');
const emailOf = (t: ServerTenant, index: number) => logins.filter((l) => l.tenantId === t.id)[index].email;
const demo = (t: ServerTenant) => buildDemoData(t as Parameters<typeof buildDemoData>[0], clock);

let db: Database;

beforeAll(async () => {
  db = await getTestDatabase();
  logins = await seedDemoData(db, [full, bare, merged], { today: clock });
  // The company partner of `merged` has an account of its own under its e-mail, not linked to it
  // (both_found_bp): the demo's business customer, which the seed links, is unlinked here; where the
  // seed makes none, the account is made here.
  const company = demo(merged).businessPartners.find((b) => b.company1 !== null)!;
  // On `full` the company partner is one with an e-mail of its own and no account (confirm_email):
  // the demo's business customer account that the seed makes for it goes.
  await db.query(`delete from users where tenant_id = $1 and email like 'procurement@%'`, [full.id]);
  if (logins.some((l) => l.tenantId === merged.id && l.email === company.email_address))
    await db.query(`delete from user_business_partners where tenant_id = $1 and bp_number = $2`, [
      merged.id,
      company.bp_number,
    ]);
  else await createUser(db, merged.id, { email: company.email_address! });
  const { app } = createApp({
    db,
    tenants: [full, bare, merged],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
    // The link journeys below try many order numbers for one account on purpose.
    signInLimits: { windowSeconds: 900, perAddress: 100, perClient: 100_000 },
  });
  ({ baseUrl, close } = await listen(app));
});

afterAll(async () => close?.());

async function mainSubscriptions(client: Awaited<ReturnType<typeof signIn>>): Promise<Subscription[]> {
  const list = await client.get<Subscription[]>('/subscriptions');
  expect(list.status).toBe(200);
  return list.body;
}

describe('payment history and delivered issues', () => {
  it('pages the payment history by 10, zero-based, newest first, with the total', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const longest = (await mainSubscriptions(client)).find(
      (s) => s.mixType === 'PR' && s.orderStatus === 'A' && s.renewal?.autoRenewal,
    )!;
    const first = await client.get(`/subscriptions/${longest.id}/payment-history?page=0`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ page: 0, pageSize: 10 });
    expect(first.body.items).toHaveLength(10);
    expect(first.body.totalItems).toBeGreaterThan(25);
    expect(first.body.totalPages).toBe(Math.ceil(first.body.totalItems / 10));
    const dates = first.body.items.map((i: { date: string }) => i.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const last = await client.get(
      `/subscriptions/${longest.id}/payment-history?page=${first.body.totalPages - 1}`,
    );
    expect(last.body.items.length).toBe(first.body.totalItems - 10 * (first.body.totalPages - 1));
    expect(last.body.items[0].id).not.toBe(first.body.items[0].id);
    // A page number that is not a finite number is the request's fault, not the server's.
    for (const page of [
      '1e309',
      'Infinity',
      '-1e309',
      '100001',
      '-1',
      '1.5',
      '0x1',
      '0b1',
      '1e0',
      '%201',
      '-0',
      '1.0',
      '00001',
    ]) {
      const refused = await client.get(`/subscriptions/${longest.id}/payment-history?page=${page}`);
      expect(refused.status, page).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('pages delivered issues and leaves out what a tenant hides by status code', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const longest = (await mainSubscriptions(client)).find((s) => s.renewal?.autoRenewal)!;
    const issues = await client.get(`/subscriptions/${longest.id}/delivered-issues?page=1`);
    expect(issues.status).toBe(200);
    expect(issues.body.page).toBe(1);
    expect(issues.body.items).toHaveLength(10);
  });

  it('answers 404 for a subscription that is not linked to the user', async () => {
    const other = await signIn(full, emailOf(full, 2));
    const mine = (await mainSubscriptions(await signIn(full, emailOf(full, 0))))[0];
    const answer = await other.get(`/subscriptions/${mine.id}/payment-history`);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('not_found');
  });

  it('never answers for a subscription of another tenant (404), even with the same e-mail', async () => {
    const mine = (await mainSubscriptions(await signIn(full, emailOf(full, 3))))[0];
    const elsewhere = await signIn(bare, emailOf(bare, 3));
    expect(emailOf(bare, 3)).toBe(emailOf(full, 3));
    expect((await elsewhere.get(`/subscriptions/${mine.id}/delivered-issues`)).status).toBe(404);
    expect((await elsewhere.post(`/subscriptions/${mine.id}/invoices/request?invoiceNumber=1`)).status).toBe(
      404,
    );
  });

  it('refuses the issue history to a licence manager (403 not_allowed)', async () => {
    const client = await signIn(full, emailOf(full, 2));
    const licence = (await mainSubscriptions(client)).find((s) => s.roles.includes('LV'))!;
    const answer = await client.get(`/subscriptions/${licence.id}/delivered-issues`);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('not_allowed');
  });

  it('refuses the payment history with 403 feature_disabled when the tenant has it off', async () => {
    const client = await signIn(bare, emailOf(bare, 0));
    const [first] = await mainSubscriptions(client);
    const answer = await client.get(`/subscriptions/${first.id}/payment-history`);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('feature_disabled');
    expect(answer.body.error.details).toEqual({ capability: 'paymentHistory', reason: 'featureDisabled' });
  });

  it('refuses the payment history with 403 not_allowed to a user who is not the ordering party', async () => {
    const client = await signIn(full, emailOf(full, 1));
    const asPayer = (await mainSubscriptions(client)).find((s) => !s.roles.includes('AG'))!;
    const answer = await client.get(`/subscriptions/${asPayer.id}/payment-history`);
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('not_allowed');
    // The rule's reason, the one the subscription page and the flow's notice go by.
    expect(answer.body.error.details).toEqual({ capability: 'paymentHistory', reason: 'notOrderingParty' });
    expect(answer.body.error.message).toContain('only the ordering party');
  });
});

describe('invoices', () => {
  it('takes an invoice request once a day and refuses the second with 409 processing', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const sub = (await mainSubscriptions(client)).find((s) => s.renewal?.autoRenewal)!;
    const page = await client.get(`/subscriptions/${sub.id}/payment-history?page=1`);
    const invoice = page.body.items[0];
    const first = await client.post(
      `/subscriptions/${sub.id}/invoices/request?invoiceNumber=${invoice.invoiceNumber}&externalDocumentNumber=${invoice.externalDocumentNumber}`,
    );
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'success' });
    const second = await client.post(
      `/subscriptions/${sub.id}/invoices/request?invoiceNumber=${invoice.invoiceNumber}`,
    );
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'processing', details: { status: 'processing' } });
    // The next day (a new session: the idle timeout ended this one) it can be requested again.
    const today = clock;
    clock = new Date(today.getTime() + 24 * 3600 * 1000);
    const tomorrow = await newSession(full, emailOf(full, 0));
    const nextDay = await tomorrow.post(
      `/subscriptions/${sub.id}/invoices/request?invoiceNumber=${invoice.invoiceNumber}`,
    );
    clock = today;
    sessions.clear();
    expect(nextDay.status).toBe(200);
  });

  it('validates the invoice request query and picks the entry by externalDocumentNumber when given (§7)', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const sub = (await mainSubscriptions(client)).find((s) => s.renewal?.autoRenewal)!;
    const bad = await client.post(
      `/subscriptions/${sub.id}/invoices/request?invoiceNumber=${'9'.repeat(36)}&externalDocumentNumber=%3Cscript%3E`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'query/invoiceNumber',
      'query/externalDocumentNumber',
    ]);
    expect(
      (await client.post(`/subscriptions/${sub.id}/invoices/request?invoiceNumber=1&invoiceNumber=2`)).status,
    ).toBe(400);
    const invoice = (await client.get(`/subscriptions/${sub.id}/payment-history?page=2`)).body.items[0];
    const wrongDocument = await client.post(
      `/subscriptions/${sub.id}/invoices/request?invoiceNumber=${invoice.invoiceNumber}&externalDocumentNumber=RE0000-000000`,
    );
    expect(wrongDocument.status).toBe(404);
    const right = await client.post(
      `/subscriptions/${sub.id}/invoices/request?invoiceNumber=${invoice.invoiceNumber}&externalDocumentNumber=${invoice.externalDocumentNumber}`,
    );
    expect(right.body).toEqual({ status: 'success' });
  });

  it('refuses invoice requests for unknown invoices (404), without a number (400) and by non-ordering parties (403)', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const sub = (await mainSubscriptions(client)).find((s) => s.renewal?.autoRenewal)!;
    expect((await client.post(`/subscriptions/${sub.id}/invoices/request?invoiceNumber=0000`)).status).toBe(
      404,
    );
    expect((await client.post(`/subscriptions/${sub.id}/invoices/request`)).status).toBe(400);
    const second = await signIn(full, emailOf(full, 1));
    const asPayer = (await mainSubscriptions(second)).find((s) => !s.roles.includes('AG'))!;
    const refused = await second.post(`/subscriptions/${asPayer.id}/invoices/request?invoiceNumber=1`);
    expect(refused.status).toBe(403);
  });

  it('downloads an invoice as a real PDF named after its documentId, with the invoice number inside', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const sub = (await mainSubscriptions(client)).find((s) => s.renewal?.autoRenewal)!;
    const invoice = (await client.get(`/subscriptions/${sub.id}/payment-history`)).body.items[2];
    const answer = await client.get<string>(`/subscriptions/${sub.id}/invoices/${invoice.id}/download`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="${invoice.documentId}.pdf"`,
    );
    // The file itself, as bytes, read back as text the way a PDF reader does (pdfkit).
    const file = await fetchFile(
      `${baseUrl}/t/${full.id}/api/subscriptions/${sub.id}/invoices/${invoice.id}/download`,
      client.accessToken,
    );
    expect(file.bytes.subarray(0, 8).toString('latin1')).toBe('%PDF-1.7');
    expect(file.bytes.toString('latin1').trimEnd().endsWith('%%EOF')).toBe(true);
    const { text, title } = await pdfText(file.bytes);
    expect(title).toBe(`Rechnung ${invoice.invoiceNumber}`);
    expect(text).toContain(`Rechnungsnummer ${invoice.invoiceNumber}`);
    expect(text).toContain(`Verlag ${full.id}`);
  });

  it('answers 404 for an invoice of another subscription', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const [a, b] = (await mainSubscriptions(client)).filter((s) => s.roles.includes('AG'));
    const invoice = (await client.get(`/subscriptions/${a.id}/payment-history`)).body.items[0];
    expect((await client.get(`/subscriptions/${b.id}/invoices/${invoice.id}/download`)).status).toBe(404);
  });
});

describe('downloads', () => {
  it('gives a delivered-issue file URL that serves a PDF, and refuses issues that are not found', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const epaper = (await mainSubscriptions(client)).find((s) => s.mixType === 'DE')!;
    const issues = (await client.get(`/subscriptions/${epaper.id}/delivered-issues`)).body.items as Array<{
      issue: string;
      downloadStatus: string;
    }>;
    const found = issues.find((i) => i.downloadStatus === 'found')!;
    const answer = await client.post(`/subscriptions/${epaper.id}/delivered-issues/download`, {
      issue: found.issue,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.url).toBe(`/t/${full.id}/api/files/${answer.body.key}`);
    // The file is served to the session of the user who asked.
    const file = await client.get<string>(answer.body.url.replace(`/t/${full.id}/api`, ''));
    expect(file.status).toBe(200);
    expect(file.body.startsWith('%PDF-')).toBe(true);
    const notFound = issues.find((i) => i.downloadStatus === 'not_found')!;
    const refused = await client.post(`/subscriptions/${epaper.id}/delivered-issues/download`, {
      issue: notFound.issue,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('download_not_available');
    expect((await browserLikeClient(baseUrl, '').get(`/t/${full.id}/api/files/not-a-key`)).status).toBe(404);
  });

  it("names a purchase order's partner with the address lines and suffix an address change keeps", async () => {
    const client = await signIn(full, emailOf(full, 2));
    const orders = (await client.get('/purchase-orders')).body as Array<{
      businessPartner: { bpNumber: string };
    }>;
    const { bpNumber } = orders[0].businessPartner;
    await db.query(
      `update business_partners set details = details || '{"addressLine2": "Flat 2", "streetNumberSuffix": "a"}'
        where tenant_id = $1 and bp_number = $2`,
      [full.id, bpNumber],
    );
    const again = (await client.get('/purchase-orders')).body as Array<{
      businessPartner: Record<string, unknown>;
    }>;
    expect(again[0].businessPartner).toMatchObject({ addressLine2: 'Flat 2', streetNumberSuffix: 'a' });
  });

  it('expires file keys after ten minutes and never serves them in another tenant', async () => {
    const client = await signIn(full, emailOf(full, 2));
    const orders = (await client.get('/purchase-orders')).body as Array<{
      id: string;
      downloadStatus: string;
      distributionArticleNumber: string;
    }>;
    const found = orders.find((o) => o.downloadStatus === 'found')!;
    const answer = await client.get(
      `/purchase-orders/${found.id}/download?distributionArticleNumber=${found.distributionArticleNumber}`,
    );
    expect(answer.status).toBe(200);
    expect(
      (await browserLikeClient(baseUrl, '').get(`/t/${bare.id}/api/files/${answer.body.key}`)).status,
    ).toBe(404);
    clock = new Date(clock.getTime() + 11 * 60 * 1000);
    expect((await client.get(`/files/${answer.body.key}`)).status).toBe(404);
    clock = new Date(clock.getTime() - 11 * 60 * 1000);
    const expired = orders.find((o) => o.downloadStatus === 'expired')!;
    expect((await client.get(`/purchase-orders/${expired.id}/download`)).status).toBe(409);
  });
});

describe('purchase orders, pending orders, publications', () => {
  it('lists purchase orders newest first with the user role, and takes invoice requests only from the ordering party', async () => {
    const client = await signIn(full, emailOf(full, 2));
    const orders = (await client.get('/purchase-orders')).body as Array<{
      id: string;
      role: string;
      invoiceNumber: string;
      dateOfPurchaseOrderClient: string;
    }>;
    expect(orders.length).toBeGreaterThanOrEqual(8);
    const dates = orders.map((o) => o.dateOfPurchaseOrderClient);
    expect([...dates].sort().reverse()).toEqual(dates);
    const asRecipient = orders.find((o) => o.role === 'WE')!;
    expect(
      (
        await client.post(
          `/purchase-orders/${asRecipient.id}/invoices/request?invoiceNumber=${asRecipient.invoiceNumber}`,
        )
      ).status,
    ).toBe(403);
    const asOrderer = orders.find((o) => o.role === 'AG')!;
    const first = await client.post(
      `/purchase-orders/${asOrderer.id}/invoices/request?invoiceNumber=${asOrderer.invoiceNumber}`,
    );
    expect(first.body).toEqual({ status: 'success' });
    expect(
      (
        await client.post(
          `/purchase-orders/${asOrderer.id}/invoices/request?invoiceNumber=${asOrderer.invoiceNumber}`,
        )
      ).status,
    ).toBe(409);
  });

  it('answers a purchase-order invoice request by §4: forwarded to another invoice recipient, not_relevant for an amount of 0', async () => {
    const client = await signIn(full, emailOf(full, 2));
    const orders = (await client.get('/purchase-orders')).body as Array<{
      id: string;
      role: string;
      invoiceNumber: string;
      reason: string | null;
    }>;
    // The seeded replacement delivery is free.
    const free = orders.find((o) => o.role === 'AG' && o.reason !== null)!;
    expect(
      (await client.post(`/purchase-orders/${free.id}/invoices/request?invoiceNumber=${free.invoiceNumber}`))
        .body,
    ).toEqual({ status: 'not_relevant' });
    // The user orders but no longer receives the invoice: it goes to the invoice recipient.
    // (The oldest such order: the newest one was requested by the test above.)
    const other = orders.findLast((o) => o.role === 'AG' && o.reason === null && o.invoiceNumber !== null)!;
    await db.query(
      `delete from purchase_order_roles where tenant_id = $1 and purchase_order_id = $2 and role = 'RE'`,
      [full.id, other.id],
    );
    expect(
      (
        await client.post(
          `/purchase-orders/${other.id}/invoices/request?invoiceNumber=${other.invoiceNumber}`,
        )
      ).body,
    ).toEqual({ status: 'forwarded' });
  });

  it('drops pending orders that duplicate a known order number, and is off when the tenant has no pending orders', async () => {
    const client = await signIn(full, emailOf(full, 2));
    const pending = (await client.get('/pending-orders')).body as Array<{ orderNumber: string }>;
    const known = new Set(
      ((await client.get('/subscriptions')).body as Subscription[]).map((s) => s.orderNumber),
    );
    expect(pending.length).toBe(2);
    expect(pending.every((p) => !known.has(p.orderNumber))).toBe(true);
    // A file of a pending order is served by the portal, to its owner only.
    const withFile = (
      pending as unknown as Array<{ id: string; download: { url: string; isFile: boolean } | null }>
    ).find((p) => p.download?.isFile)!;
    expect(withFile.download!.url).toBe(`/t/${full.id}/api/pending-orders/${withFile.id}/file`);
    const file = await client.get<string>(`/pending-orders/${withFile.id}/file`);
    expect(file.status).toBe(200);
    expect(file.body.startsWith('%PDF-')).toBe(true);
    expect(
      (await (await signIn(full, emailOf(full, 0))).get(`/pending-orders/${withFile.id}/file`)).status,
    ).toBe(404);
    const bareClient = await signIn(bare, emailOf(bare, 2));
    expect((await bareClient.get('/pending-orders')).status).toBe(403);
  });

  it('lists publications sorted by description', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const pubs = (await client.get('/publications')).body as Array<{ description: string }>;
    expect(pubs.length).toBeGreaterThan(1);
    expect(pubs.map((p) => p.description)).toEqual(
      [...pubs.map((p) => p.description)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
    );
  });
});

describe('gift certificates, order attributes, business partners', () => {
  it('gives the ordering party of a gift its certificate and refuses others', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const subs = await mainSubscriptions(client);
    const gift = subs.find((s) => s.salesSource === 'GIFT')!;
    const answer = await client.get(`/subscriptions/${gift.id}/gift-certificates`);
    expect(answer.status).toBe(200);
    expect(answer.body[0].title).toBe(gift.displayName);
    // The title is shown: in the screen's language, as the subscription's own name is.
    for (const locale of ['de-DE', 'en-GB']) {
      const listed = (
        await client.get<Subscription[]>('/subscriptions', { 'accept-language': locale })
      ).body.find((s) => s.id === gift.id)!;
      const certificate = await client.get(`/subscriptions/${gift.id}/gift-certificates`, {
        'accept-language': locale,
      });
      expect(certificate.body[0].title, locale).toBe(listed.displayName);
    }
    const file = await client.get<string>(answer.body[0].download.url.replace(`/t/${full.id}/api`, ''));
    expect(file.body.startsWith('%PDF-')).toBe(true);
    const notGift = subs.find((s) => s.salesSource !== 'GIFT')!;
    expect((await client.get(`/subscriptions/${notGift.id}/gift-certificates`)).status).toBe(403);
  });

  it('changes an editable attribute, adds a creatable one, refuses an empty value and others', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const sub = (await mainSubscriptions(client)).find((s) => s.orderAttributes.length > 0)!;
    const changed = await client.post(`/subscriptions/${sub.id}/attributes`, {
      type: 'DELIVERY_NOTE',
      value: 'Bitte beim Nachbarn abgeben',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.orderAttributes).toContainEqual({
      type: 'DELIVERY_NOTE',
      value: 'Bitte beim Nachbarn abgeben',
    });
    const added = await client.post(`/subscriptions/${sub.id}/attributes`, { type: 'COSTS', value: '4711' });
    expect(added.body.orderAttributes).toHaveLength(2);
    // The answer is the subscription a fresh read gives, in the screen's language, and the activity
    // record lists every change.
    for (const language of ['en-GB', 'de-DE']) {
      const answer = await client.post(
        `/subscriptions/${sub.id}/attributes`,
        { type: 'DELIVERY_NOTE', value: `Tür ${language}` },
        {
          'accept-language': language,
        },
      );
      const fresh = await client.get(`/subscriptions/${sub.id}`, { 'accept-language': language });
      expect(answer.body).toEqual(fresh.body);
    }
    const activity = await db.query<{ details: { type: string; value: string } }>(
      `select details from account_activity where tenant_id = $1 and action = 'order_attribute' and subject_id = $2 order by id`,
      [full.id, sub.id],
    );
    expect(activity.map((row) => row.details)).toEqual([
      { type: 'DELIVERY_NOTE', value: 'Bitte beim Nachbarn abgeben' },
      { type: 'COSTS', value: '4711' },
      { type: 'DELIVERY_NOTE', value: 'Tür en-GB' },
      { type: 'DELIVERY_NOTE', value: 'Tür de-DE' },
    ]);
    expect(
      (await client.post(`/subscriptions/${sub.id}/attributes`, { type: 'COSTS', value: 'x' })).status,
    ).toBe(403);
    expect(
      (await client.post(`/subscriptions/${sub.id}/attributes`, { type: 'DELIVERY_NOTE', value: '' })).status,
    ).toBe(400);
    // One line, as the order system takes the field: no line break, tab or direction character.
    for (const value of ['Tür\nX-Note: 1', 'Tür\tlinks', 'Tür \u202eskniL'])
      expect(
        (await client.post(`/subscriptions/${sub.id}/attributes`, { type: 'DELIVERY_NOTE', value })).status,
        value,
      ).toBe(400);
    expect((await client.get<any>(`/subscriptions/${sub.id}`)).body.orderAttributes).toContainEqual({
      type: 'DELIVERY_NOTE',
      value: 'Tür de-DE',
    });
    expect(
      (await client.post(`/subscriptions/${sub.id}/attributes`, { type: 'OTHER', value: 'x' })).status,
    ).toBe(403);
    // Of its kind (portal-core.md §3 "inputType"): a date attribute takes a calendar day only.
    for (const value of ['soon', '2027-02-30', '01.03.2027']) {
      const refused = await client.post<any>(`/subscriptions/${sub.id}/attributes`, {
        type: 'DELIVERY_DAY',
        value,
      });
      expect([refused.status, refused.body.error.details], value).toEqual([
        400,
        { fields: { value: 'invalid' } },
      ]);
    }
    const day = await client.post<any>(`/subscriptions/${sub.id}/attributes`, {
      type: 'DELIVERY_DAY',
      value: '2027-03-01',
    });
    expect(day.body.orderAttributes).toContainEqual({ type: 'DELIVERY_DAY', value: '2027-03-01' });
  });

  it('lists the account partners with their subscriptions and roles', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const partners = (await client.get('/business-partners')).body as Array<{
      own: boolean;
      bpNumber: string;
      subscriptions: Array<{ roles: string[] }>;
    }>;
    expect(partners[0].own).toBe(true);
    expect(partners[0].subscriptions.length).toBeGreaterThan(3);
    expect(partners[0].subscriptions[0].roles).toContain('AG');
    // The gift's goods recipient is shown to the ordering party.
    expect(partners.some((p) => !p.own && p.subscriptions.some((s) => s.roles.includes('WE')))).toBe(true);
  });

  it('lists of the other parties the contract’s recipients, not a licence manager or a licence’s user', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const before = (await client.get('/business-partners')).body as Array<{
      own: boolean;
      bpNumber: string;
      subscriptions: Array<{ subscriptionId: string; roles: string[] }>;
    }>;
    const ordered = before.find((p) => p.own)!.subscriptions.find((s) => s.roles.includes('AG'))!;
    const manager = '9990000071';
    const licensee = '9990000072';
    await db.transaction(async (tx) => {
      await tx.query(`select set_config('portal.order_system_write', 'on', true)`);
      await tx.query(
        `insert into business_partners (tenant_id, bp_number, first_name, last_name1, email_address)
         values ($1, $2, 'Carla', 'Chef', 'chef@partners.example'), ($1, $3, 'Lena', 'Leser', 'leser@partners.example')`,
        [full.id, manager, licensee],
      );
      await tx.query(
        `insert into subscription_roles (tenant_id, subscription_id, bp_number, role, via_license)
         values ($1, $2, $3, 'LV', false), ($1, $2, $4, 'WE', true)`,
        [full.id, ordered.subscriptionId, manager, licensee],
      );
    });
    try {
      const partners = (await client.get('/business-partners')).body as Array<{ bpNumber: string }>;
      expect(partners.map((p) => p.bpNumber)).not.toContain(manager);
      expect(partners.map((p) => p.bpNumber)).not.toContain(licensee);
      expect(partners).toHaveLength(before.length);
    } finally {
      await db.transaction(async (tx) => {
        await tx.query(`select set_config('portal.order_system_write', 'on', true)`);
        await tx.query(`delete from subscription_roles where tenant_id = $1 and bp_number = any($2)`, [
          full.id,
          [manager, licensee],
        ]);
        await tx.query(`delete from business_partners where tenant_id = $1 and bp_number = any($2)`, [
          full.id,
          [manager, licensee],
        ]);
      });
    }
  });

  it('gives every name and address field a partner has: the own partners’ other details too, the other parties’ not', async () => {
    const client = await signIn(full, emailOf(full, 0));
    const before = (await client.get('/business-partners')).body as Array<{ own: boolean; bpNumber: string }>;
    const own = before.find((p) => p.own)!.bpNumber;
    const other = before.find((p) => !p.own)!.bpNumber;
    const extra = {
      streetNumberSuffix: 'b',
      jobTitle: 'Redakteurin',
      addressLine2: 'Hinterhaus',
      info: 'VIP',
    };
    const restore = await db.query<{ bp_number: string; details: unknown }>(
      `select bp_number::text, details from business_partners where tenant_id = $1 and bp_number::text = any($2)`,
      [full.id, [own, other]],
    );
    await db.query(
      `update business_partners set details = details || $3::jsonb where tenant_id = $1 and bp_number::text = any($2)`,
      [full.id, [own, other], JSON.stringify(extra)],
    );
    try {
      const partners = (await client.get('/business-partners')).body as Array<Record<string, unknown>>;
      expect(partners.find((p) => p.bpNumber === own)).toMatchObject(extra);
      const party = partners.find((p) => p.bpNumber === other)!;
      expect(party).toMatchObject({
        streetNumberSuffix: 'b',
        jobTitle: 'Redakteurin',
        addressLine2: 'Hinterhaus',
      });
      expect(party.info).toBeUndefined();
    } finally {
      for (const row of restore)
        await db.query(
          `update business_partners set details = $3 where tenant_id = $1 and bp_number::text = $2`,
          [full.id, row.bp_number, row.details],
        );
    }
  });
});

describe('link subscription (POST /subscriptions)', () => {
  const fillers = () => {
    const data = demo(full);
    // The business customer's own account is removed in beforeAll: its partner is free to link.
    const linkedBps = new Set(
      data.userBusinessPartners.filter((u) => !isProcurement(u.email)).map((u) => u.bp_number),
    );
    return data.subscriptions
      .filter((s) =>
        data.subscriptionRoles.some(
          (r) => r.subscription_id === s.id && r.role === 'AG' && !linkedBps.has(r.bp_number),
        ),
      )
      .map((s) => {
        const bp = data.subscriptionRoles.find(
          (r) => r.subscription_id === s.id && r.role === 'AG',
        )!.bp_number;
        const partner = data.businessPartners.find((b) => b.bp_number === bp)!;
        return { subscription: s, partner };
      });
  };

  it('answers every result status of §4 with a 400 and links on success', async () => {
    const client = await signIn(full, emailOf(full, 3));
    const candidates = fillers();
    const open = candidates.filter(
      (c) => c.partner.email_address === null && c.subscription.order_status === 'A',
    );
    const target = open[0];
    const inactive = candidates.find(
      (c) => c.subscription.order_status === 'I' && c.partner.email_address === null,
    )!;
    const company = candidates.find((c) => c.partner.company1 !== null)!;
    const link = (body: Record<string, unknown>) => client.post('/subscriptions', body);

    const invalid = await link({ orderNumber: '123', zipcode: '', preferredRole: 'AG' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details).toMatchObject({
      status: 'validation_failed',
      fields: { orderNumber: 'invalid_order_number', zipcode: 'required' },
    });
    // Past the schema's lengths, the field is named with the form's own error (§5).
    const tooLong = await link({ orderNumber: '46468777777', zipcode: '12345678901', preferredRole: 'AG' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.details).toEqual({
      status: 'validation_failed',
      fields: { orderNumber: 'invalid_order_number', zipcode: 'too_long' },
    });
    expect(
      (await link({ bpNumber: 12, zipcode: '12345', preferredRole: 'XX' })).body.error.details.fields,
    ).toEqual({ bpNumber: 'invalid', preferredRole: 'invalid' });
    // The mask accepts 9 digits (§5) but order numbers have 10 (§9).
    expect(
      (await link({ orderNumber: '412345678', zipcode: '12345', preferredRole: 'AG' })).body.error.details
        .status,
    ).toBe('validation_failed');
    expect(
      (await link({ orderNumber: '4999999999', zipcode: '12345', preferredRole: 'AG' })).body.error.details
        .status,
    ).toBe('not_found');
    expect(
      (
        await link({
          orderNumber: inactive.subscription.order_number,
          zipcode: inactive.partner.zipcode,
          preferredRole: 'AG',
        })
      ).body.error.details.status,
    ).toBe('not_supported');
    // Whether it has ended is said only to whom its holder's zip code is known.
    expect(
      (
        await link({
          orderNumber: inactive.subscription.order_number,
          zipcode: '00000',
          preferredRole: 'AG',
        })
      ).body.error.details,
    ).toMatchObject({ status: 'verification_failed', method: 'zip' });
    const wrongZip = await link({
      orderNumber: target.subscription.order_number,
      zipcode: '00000',
      preferredRole: 'AG',
    });
    expect(wrongZip.body.error.details).toMatchObject({ status: 'verification_failed', method: 'zip' });
    const mainSub = demo(full).subscriptions[0];
    const mainBp = demo(full).businessPartners[0];
    const taken = await link({
      orderNumber: mainSub.order_number,
      zipcode: mainBp.zipcode,
      preferredRole: 'AG',
    });
    expect(taken.body.error.details.status).toBe('already_linked');
    expect(taken.body.error.details.maskedEmail).toMatch(/^.\*{3,}@/);
    expect(taken.body.error.details.maskedEmail).not.toContain(emailOf(full, 0).split('@')[0]);

    // No address on record: nothing can prove the account speaks for the partner, and nothing the
    // request brings stands in for it (an address or a token are fields the call does not take).
    const noAddress = await link({
      orderNumber: target.subscription.order_number,
      zipcode: target.partner.zipcode,
      preferredRole: 'AG',
    });
    expect(noAddress.body.error.details).toMatchObject({ status: 'no_email_on_record' });
    for (const extra of [{ email: emailOf(full, 3) }, { confirmToken: 'x'.repeat(43) }])
      expect(
        (
          await link({
            orderNumber: target.subscription.order_number,
            zipcode: target.partner.zipcode,
            preferredRole: 'AG',
            ...extra,
          })
        ).body.error.details.status,
      ).toBe('validation_failed');
    expect((await mainSubscriptions(client)).map((s) => s.id)).not.toContain(target.subscription.id);

    // Another address on record: the link goes there, and only opening it links the subscription.
    const onRecord = company.partner.email_address!;
    const confirm = await link({
      orderNumber: company.subscription.order_number,
      zipcode: company.partner.zipcode,
      preferredRole: 'AG',
    });
    expect(confirm.body.error.details).toEqual({
      status: 'confirm_email',
      maskedEmail: maskEmail(onRecord),
      orderNumber: company.subscription.order_number,
      bpNumber: company.partner.bp_number,
    });
    expect(JSON.stringify(confirm.body)).not.toContain(onRecord);
    // Asking again while the link is valid gets the same answer and sends nothing more.
    const twice = await link({
      orderNumber: company.subscription.order_number,
      zipcode: company.partner.zipcode,
      preferredRole: 'AG',
    });
    expect(twice.body.error.details.status).toBe('confirm_email');
    const [tokens] = await db.query<{ n: number }>(
      `select count(*)::int as n from login_tokens where tenant_id = $1 and email = $2 and purpose = 'confirm-link-mail'`,
      [full.id, onRecord.toLowerCase()],
    );
    expect(tokens.n).toBe(1);
    const mail = (await outbox.mails(onRecord)).at(-1)!;
    expect(mail.text).toContain(company.subscription.order_number);
    // The owner of the address on record sees the asking account's domain (fieldRules.ts maskEmailName).
    expect(mail.text).toContain(maskEmailName(emailOf(full, 3)));
    const confirmLink = firstLink(mail.text);
    expect(confirmLink.pathname).toBe(`/t/${full.id}/link-subscription/confirm`);
    expect((await mainSubscriptions(client)).map((s) => s.id)).not.toContain(company.subscription.id);
    // Whoever holds the mailbox confirms, signed in or not.
    const mailbox = browserLikeClient(baseUrl, `/t/${full.id}/api`);
    await mailbox.get('/subscriptions');
    const token = confirmLink.searchParams.get('t')!;
    // Someone else behind the mailbox's client address has spent its budget of refused tokens:
    // wrong ones wait, the genuine link is still tried and works (server/auth/rateLimit.ts
    // countingFailuresOfSecret).
    const wrongToken = { token: 'x'.repeat(43) };
    expect((await mailbox.post<any>('/link-subscription/confirm', wrongToken)).body.error.code).toBe(
      'invalid_token',
    );
    const overBudget = () =>
      db.query(
        `update rate_limits set hits = 1000000 where tenant_id = $1 and bucket like 'token:client:%'`,
        [full.id],
      );
    await overBudget();
    expect((await mailbox.post('/link-subscription/confirm', wrongToken)).status).toBe(429);
    expect((await mailbox.post('/link-subscription/confirm/details', wrongToken)).status).toBe(429);
    // The page names what the button will link before it is pressed, leaving the link unspent.
    for (let i = 0; i < 2; i += 1) {
      const details = await mailbox.post('/link-subscription/confirm/details', { token });
      expect(details.status).toBe(200);
      expect(details.body).toEqual({
        orderNumber: company.subscription.order_number,
        bpNumber: company.partner.bp_number,
        maskedAccountEmail: maskEmailName(emailOf(full, 3)),
      });
    }
    expect((await mainSubscriptions(client)).map((s) => s.id)).not.toContain(company.subscription.id);
    const confirmed = await mailbox.post('/link-subscription/confirm', { token });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({
      orderNumber: company.subscription.order_number,
      bpNumber: company.partner.bp_number,
      maskedAccountEmail: maskEmailName(emailOf(full, 3)),
      yours: false,
    });
    expect((await mainSubscriptions(client)).map((s) => s.id)).toContain(company.subscription.id);
    await db.query(`delete from rate_limits where tenant_id = $1 and bucket like 'token:client:%'`, [
      full.id,
    ]);
    const spent = await mailbox.post('/link-subscription/confirm', { token });
    expect(spent.status).toBe(400);
    expect(spent.body.error.code).toBe('invalid_token');
    const spentDetails = await mailbox.post('/link-subscription/confirm/details', { token });
    expect([spentDetails.status, spentDetails.body.error.code]).toEqual([400, 'invalid_token']);
    const again = await link({
      orderNumber: company.subscription.order_number,
      zipcode: company.partner.zipcode,
      preferredRole: 'AG',
    });
    expect(again.body.error.details.status).toBe('already_linked_bp');

    // The order system rejects the link: the partner, and its subscription, are not the account's any more.
    const [linked] = await db.query<{ id: string }>(
      `select id::text from account_events where tenant_id = $1 and type = 'subscription.linked' and data->>'bpNumber' = $2`,
      [full.id, company.partner.bp_number],
    );
    const rejected = await acknowledgeChange(
      { db, now: () => clock, mailFrom: 'portal@orders.test' },
      full,
      '00000000-0000-4000-8000-000000000000',
      linked.id,
      { status: 'rejected', reason: { 'de-DE': 'Nicht berechtigt.', 'en-GB': 'Not entitled.' } },
    );
    expect(rejected.acknowledgement.undone).toBe(true);
    expect((await mainSubscriptions(client)).map((s) => s.id)).not.toContain(company.subscription.id);
    const told = (await outbox.mails(emailOf(full, 3))).at(-1)!;
    expect(told.text).toContain('Nicht berechtigt.');
    expect(told.text).toContain('Ihr Konto zeigt deshalb wieder die bisherigen Angaben.');
    // Which contract: the link's event names the subscription, the notice and the mail its number.
    expect(told.text).toContain(company.subscription.order_number);
    const notices = await client.get<any[]>('/rejected-changes');
    expect(notices.body[0]).toMatchObject({
      eventId: linked.id,
      undone: true,
      reason: 'Nicht berechtigt.',
      orderNumber: company.subscription.order_number,
    });
  });

  it('links by business-partner number: verification, the mailed confirmation, already linked, both found', async () => {
    const client = await signIn(full, emailOf(full, 1));
    // A person with an address on record and no account (the company goes to the test above).
    const target = fillers().find(
      (c) =>
        c.partner.email_address !== null &&
        c.partner.company1 === null &&
        c.subscription.order_status !== 'I',
    )!;
    const link = (body: Record<string, unknown>) => client.post('/subscriptions', body);
    const wrong = await link({
      bpNumber: target.partner.bp_number,
      zipcode: '99999',
      lastName: target.partner.last_name1,
    });
    expect(wrong.body.error.details).toMatchObject({
      status: 'verification_failed',
      method: 'bp_number_zip',
    });
    expect(
      (await link({ bpNumber: '9999999999', zipcode: '1', lastName: 'X' })).body.error.details.status,
    ).toBe('not_found');
    const byNumber = {
      bpNumber: target.partner.bp_number,
      zipcode: target.partner.zipcode,
      lastName: target.partner.last_name1,
    };
    const asked = await link(byNumber);
    expect(asked.body.error.details).toMatchObject({
      status: 'confirm_email',
      maskedEmail: maskEmail(target.partner.email_address!),
    });
    const mail = (await outbox.mails(target.partner.email_address!)).at(-1)!;
    expect(mail.text).toContain(target.partner.bp_number);
    // Opened in the browser of the account that asked: the answer says it is the caller's own.
    const confirmed = await client.post('/link-subscription/confirm', {
      token: firstLink(mail.text).searchParams.get('t'),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      orderNumber: null,
      bpNumber: target.partner.bp_number,
      yours: true,
    });
    expect((await mainSubscriptions(client)).map((s) => s.id)).toContain(target.subscription.id);
    expect((await link(byNumber)).body.error.details.status).toBe('already_linked_bp');
    // The demo partner has its own account (demo@portal.example) but is looked up from another one.
    const demoBp = demo(full).businessPartners.find((b) => b.email_address === 'demo@portal.example')!;
    const taken = await link({
      bpNumber: demoBp.bp_number,
      zipcode: demoBp.zipcode,
      lastName: demoBp.last_name1,
    });
    expect(taken.body.error.details.status).toBe('already_linked');
  });

  it('answers already_linked with the other account masked when it took the partner between the checks and the link', async () => {
    const withEmail = fillers().filter(
      (c) =>
        c.partner.email_address !== null &&
        c.partner.company1 === null &&
        c.subscription.order_status === 'A',
    );
    const { partner } = withEmail[0];
    // Free again (the test above links it by customer number). The account that asks has the
    // partner's address (no confirmation mail); another account is linked to the partner once the
    // checks before the transaction have passed.
    await db.query('delete from user_business_partners where tenant_id = $1 and bp_number = $2', [
      full.id,
      partner.bp_number,
    ]);
    const asking = await createUser(db, full.id, { email: partner.email_address! });
    const other = await createUser(db, full.id, { email: `race-${full.id}@example.org` });
    const racing: Database = Object.create(db, {
      transaction: {
        value: async (fn: Parameters<Database['transaction']>[0]) => {
          await linkPartnerToUser(db, full.id, other.id, partner.bp_number);
          return db.transaction(fn);
        },
      },
    });
    const ctx = {
      tenantId: full.id,
      settings: { linkSubscription: { allowBpNumber: true } },
      user: { id: asking.id, email: asking.email },
      mail: {
        tenantName: full.name,
        defaultLocale: 'de-DE',
        mailFrom: 'portal@example.org',
        origin: () => {
          throw new Error('no mail expected');
        },
        now: clock,
      },
    };
    const refused = await linkSubscription(racing, ctx, {
      bpNumber: partner.bp_number,
      zipcode: partner.zipcode!,
      lastName: partner.last_name1!,
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LinkRefused);
    expect((refused as LinkRefused).result).toEqual({
      status: 'already_linked',
      bpNumber: partner.bp_number,
      maskedEmail: maskEmail(other.email),
    });
  });

  it('answers both_found_bp when the partner already has an account of its own', async () => {
    const client = await signIn(merged, emailOf(merged, 0));
    const company = demo(merged).businessPartners.find((b) => b.company1 !== null)!;
    const answer = await client.post('/subscriptions', {
      bpNumber: company.bp_number,
      zipcode: company.zipcode,
      lastName: company.company1,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details).toMatchObject({ status: 'both_found_bp', bpNumber: company.bp_number });
  });

  it('is refused to a partial login (order number), which may act on its one subscription only', async () => {
    const data = demo(full);
    const sub = data.subscriptions[0];
    const partner = data.businessPartners[0];
    const c = browserLikeClient(baseUrl, `/t/${full.id}/api`);
    await c.get('/subscriptions');
    // Order number and name earn a sign-in link to the address on record; the link opens the partial session.
    const ask = await c.post('/login/order-number', {
      orderNumber: sub.order_number,
      lastName: partner.last_name1,
    });
    expect(ask.body.error.details.status).toBe('confirm_email');
    const recipient =
      data.userBusinessPartners.find((link) => link.bp_number === partner.bp_number)?.email ??
      partner.email_address!;
    const token = firstLink((await outbox.mails(recipient)).at(-1)!.text).searchParams.get('p')!;
    const login = await c.post('/login/token', { token });
    expect(login.status).toBe(200);
    expect(login.body.loginSource).toBe('order-number');
    c.setAccessToken(login.body.accessToken);
    const refused = await c.post('/subscriptions', {
      orderNumber: '4123456789',
      zipcode: '1',
      preferredRole: 'AG',
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('partial_login');
    expect((await c.get(`/subscriptions/${sub.id}/payment-history`)).status).toBe(200);
  });

  it('is refused when the tenant has no manual registration', async () => {
    const client = await signIn(bare, emailOf(bare, 0));
    expect((await client.post('/subscriptions', { orderNumber: '4123456789', zipcode: '1' })).status).toBe(
      403,
    );
  });
});
