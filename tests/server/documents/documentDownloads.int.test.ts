/**
 * The document downloads through the API on seeded demo data: the invoice is
 * addressed to the subscription's invoice recipient, carries the tenant's publisher section, and
 * speaks the subscriber's language (the screen's Accept-Language or ?lang=); the issue file too.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import { seedDemoData } from '../../../server/seed';
import { buildDemoData } from '../../../server/seed/demoData';
import type { Subscription } from '../../../schemas/generated/subscription';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';
import { fetchFile, pdfText } from './pdfText';

const id = uniqueTenantId('documents');
const tenant = makeServerTenant({
  id,
  name: `Verlag ${id}`,
  hosts: [`${id}.test`],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: ['payment-history', 'invoice-download', 'issue-history', 'issue-download'],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  invoice: {
    publisher: {
      name: 'Dokumente Verlag GmbH',
      addressLines: ['Am Markt 3', '04109 Leipzig'],
      vatId: 'DE999888777',
    },
    vatRatePercent: 7,
  },
});

const outbox = createTestOutbox('portal-documents-outbox-');
const clock = new Date();
let baseUrl: string;
let close: () => Promise<void>;
let client: ReturnType<typeof browserLikeClient>;
let subscriptions: Subscription[];

beforeAll(async () => {
  const db = await getTestDatabase();
  const logins = await seedDemoData(db, [tenant], { today: clock });
  const { app } = createApp({
    db,
    tenants: [tenant],
    distDir: path.join(outbox.dir, 'no-dist'),
    mailer: outbox.mailer,
    now: () => clock,
  });
  ({ baseUrl, close } = await listen(app));
  const email = logins.filter((l) => l.tenantId === tenant.id)[0].email;
  ({ client } = await signInByMagicLink(outbox, { baseUrl, tenantId: tenant.id, email }));
  subscriptions = (await client.get<Subscription[]>('/subscriptions')).body;
});

afterAll(async () => close?.());

const api = (p: string) => `${baseUrl}/t/${tenant.id}/api${p}`;

/** A subscription the user orders, its newest invoice, and who the order system bills for it. */
async function invoiceCase() {
  const demo = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
  const candidates = subscriptions.filter((s) => s.roles.includes('AG') && s.orderStatus === 'A');
  const recipientOf = (s: Subscription) =>
    demo.subscriptionRoles.find((r) => r.subscription_id === s.id && r.role === 'RE')?.bp_number;
  // The demo personas mostly pay for what they order (RE = AG); the RE-over-AG choice itself is a unit test (documents.test.ts).
  const sub =
    candidates.find((s) => recipientOf(s) && recipientOf(s) !== s.orderingParty?.bpNumber) ??
    candidates.find((s) => recipientOf(s))!;
  const partner = demo.businessPartners.find((b) => b.bp_number === recipientOf(sub))!;
  const history = await client.get(`/subscriptions/${sub.id}/payment-history`);
  expect(history.status).toBe(200);
  return {
    sub,
    partner,
    invoice: history.body.items[0] as { id: string; invoiceNumber: string; amount: number },
  };
}

describe('invoice download', () => {
  it("is addressed to the invoice recipient with the publisher's address and VAT id, in the tenant's language by default", async () => {
    const { sub, partner, invoice } = await invoiceCase();
    const file = await fetchFile(
      api(`/subscriptions/${sub.id}/invoices/${invoice.id}/download`),
      client.accessToken,
    );
    expect(file.status).toBe(200);
    const { text } = await pdfText(file.bytes);
    expect(text).toContain('Dokumente Verlag GmbH');
    expect(text).toContain('Am Markt 3');
    expect(text).toContain('USt-IdNr. DE999888777');
    expect(text).toContain(
      `Rechnungsempfänger ${partner.company1 ?? `${partner.first_name} ${partner.last_name1}`}`,
    );
    expect(text).toContain(`Kundennummer ${partner.bp_number}`);
    expect(text).toContain(`Rechnungsnummer ${invoice.invoiceNumber}`);
    expect(text).toContain('Leistungszeitraum');
    expect(text).toContain('Umsatzsteuer 7 %');
    expect(text).toContain('Seite 1 von 1');
  });

  it("speaks the screen's language: Accept-Language en-GB, or ?lang=en-GB", async () => {
    const { sub, invoice } = await invoiceCase();
    const byHeader = await fetchFile(
      api(`/subscriptions/${sub.id}/invoices/${invoice.id}/download`),
      client.accessToken,
      { 'accept-language': 'en-GB' },
    );
    const english = await pdfText(byHeader.bytes);
    expect(english.title).toBe(`Invoice ${invoice.invoiceNumber}`);
    expect(english.text).toContain('Billed to');
    expect(english.text).toContain('VAT no. DE999888777');
    expect(english.text).toContain('Total (gross) EUR');
    expect(english.text).toContain('Page 1 of 1');
    const byQuery = await fetchFile(
      api(`/subscriptions/${sub.id}/invoices/${invoice.id}/download?lang=en-GB`),
      client.accessToken,
      { 'accept-language': 'de-DE' },
    );
    expect((await pdfText(byQuery.bytes)).title).toBe(`Invoice ${invoice.invoiceNumber}`);
    // A language the tenant does not offer falls back to its default.
    const french = await fetchFile(
      api(`/subscriptions/${sub.id}/invoices/${invoice.id}/download?lang=fr-FR`),
      client.accessToken,
      { 'accept-language': 'fr-FR' },
    );
    expect((await pdfText(french.bytes)).title).toBe(`Rechnung ${invoice.invoiceNumber}`);
  });

  it('refuses the download without a session', async () => {
    const { sub, invoice } = await invoiceCase();
    expect(
      (await fetchFile(api(`/subscriptions/${sub.id}/invoices/${invoice.id}/download`), undefined)).status,
    ).toBe(401);
  });
});

describe('issue download', () => {
  it('serves the issue PDF in the language of the request', async () => {
    const epaper = subscriptions.find((s) => s.mixType === 'DE')!;
    const issues = (await client.get(`/subscriptions/${epaper.id}/delivered-issues`)).body.items as Array<{
      issue: string;
      downloadStatus: string;
    }>;
    const found = issues.find((i) => i.downloadStatus === 'found')!;
    const answer = await client.post(`/subscriptions/${epaper.id}/delivered-issues/download`, {
      issue: found.issue,
    });
    expect(answer.status).toBe(200);
    const file = await fetchFile(`${baseUrl}${answer.body.url}`, client.accessToken, {
      'accept-language': 'en-GB',
    });
    expect(file.status).toBe(200);
    const { text } = await pdfText(file.bytes);
    expect(text).toContain('E-paper for personal use.');
    expect(text).toContain(`Order number ${epaper.orderNumber}`);
  });
});
