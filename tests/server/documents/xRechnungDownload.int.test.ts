/**
 * The e-invoices through the API on seeded demo data: the invoice PDF carries
 * factur-x.xml; an invoice to a business can also be downloaded as an XRechnung beside it, with the
 * PDF download's checks, and the payment history tells the screen when to offer it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { seedDemoData } from '../../../server/seed';
import { asOrderSystem } from '../../../server/store/orderSystemOverlays';
import { buildDemoData } from '../../../server/seed/demoData';
import type { Subscription } from '../../../schemas/generated/subscription';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';
import { fetchFile, pdfText } from './pdfText';
import { missingValidators, xsdCheck } from './eInvoiceValidators';

const id = uniqueTenantId('xrechnung');
const tenant = makeServerTenant({
  id,
  name: `Verlag ${id}`,
  hosts: [`${id}.test`],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: ['payment-history', 'invoice-download'],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  invoice: {
    publisher: {
      name: 'Dokumente Verlag GmbH',
      addressLines: ['Am Markt 3', '04109 Leipzig'],
      vatId: 'DE999888777',
      street: 'Am Markt 3',
      postalCode: '04109',
      city: 'Leipzig',
      countryCode: 'DE',
      electronicAddress: 'rechnungen@dokumente.example',
      contact: { name: 'Leserservice', phone: '+49 341 1234 0', email: 'leserservice@dokumente.example' },
    },
    vatRatePercent: 7,
    bankAccount: { iban: 'DE89370400440532013000' },
    paymentTermsDays: 14,
    xRechnung: true,
  },
});

const outbox = createTestOutbox('portal-xrechnung-outbox-');
const clock = new Date();
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let client: ReturnType<typeof browserLikeClient>;
let subscriptions: Subscription[];

beforeAll(async () => {
  db = await getTestDatabase();
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

afterAll(async () => {
  await close?.();
  rmSync(outbox.dir, { recursive: true, force: true });
});

const api = (p: string) => `${baseUrl}/t/${tenant.id}/api${p}`;

/** A subscription the user orders, its newest invoice, and the partner the order system bills. */
async function invoiceCase() {
  const demo = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
  const recipientOf = (s: Subscription) =>
    demo.subscriptionRoles.find((r) => r.subscription_id === s.id && r.role === 'RE')?.bp_number;
  const sub = subscriptions.find((s) => s.roles.includes('AG') && s.orderStatus === 'A' && recipientOf(s))!;
  const history = await client.get(`/subscriptions/${sub.id}/payment-history`);
  expect(history.status).toBe(200);
  return {
    sub,
    recipient: recipientOf(sub)!,
    history: history.body as {
      items: Array<{ id: string; invoiceNumber: string; documentId: string; xRechnung?: boolean }>;
    },
  };
}

/**
 * A write of the partner's record as the order system makes it (its own record, which an invoice
 * of any day names), not a change of the portal's made today (issuedInvoices.ts billedPartyOnDay).
 */
const asTheOrderSystem = (sql: string, params: unknown[]) =>
  db.transaction((tx) => asOrderSystem(tx, () => tx.query(sql, params)));

/**
 * Forgets the documents made of the subscription's invoices: an invoice is addressed to the party
 * its first document named (docs/invoices.md "Issued documents, made once"), so a test of how a
 * party is addressed starts from invoices not made yet.
 */
const forgetDocuments = (subscriptionId: string) =>
  db.query(`delete from issued_invoice_documents where tenant_id = $1 and subscription_id = $2`, [
    tenant.id,
    subscriptionId,
  ]);

describe('e-invoice downloads', () => {
  it('decides by whom an invoice was issued to: a company keeps its XRechnung, a private person gets none later', async () => {
    const { sub, recipient } = await invoiceCase();
    const setCompany = (name: string | null) =>
      asTheOrderSystem(`update business_partners set company1 = $3 where tenant_id = $1 and bp_number = $2`, [
        tenant.id,
        recipient,
        name,
      ]);
    const historyNow = async () =>
      (
        (await client.get(`/subscriptions/${sub.id}/payment-history`)).body as Awaited<
          ReturnType<typeof invoiceCase>
        >['history']
      ).items;
    const xml = (paymentId: string) =>
      fetchFile(api(`/subscriptions/${sub.id}/invoices/${paymentId}/xrechnung`), client.accessToken);
    await forgetDocuments(sub.id);
    try {
      // The newest invoice is made while the partner is a company, the next one while it is not.
      await setCompany('Wagner & Partner GmbH');
      const [newest, older] = await historyNow();
      expect((await xml(newest.id)).status).toBe(200);
      await setCompany(null);
      const pdf = await fetchFile(
        api(`/subscriptions/${sub.id}/invoices/${older.id}/download`),
        client.accessToken,
      );
      expect(pdf.status).toBe(200);
      // The company is gone from the record: the invoice issued to it keeps its XRechnung.
      const after = await historyNow();
      expect(after.find((item) => item.id === newest.id)?.xRechnung).toBe(true);
      expect(after.find((item) => item.id === older.id)?.xRechnung).toBe(false);
      const kept = await xml(newest.id);
      expect(kept.status).toBe(200);
      expect(new TextDecoder().decode(kept.bytes)).toContain('Wagner &amp; Partner GmbH');
      // A company again: the invoice issued to the private person still has none.
      await setCompany('Wagner & Partner GmbH');
      const again = await historyNow();
      expect(again.find((item) => item.id === older.id)?.xRechnung).toBe(false);
      expect((await xml(older.id)).status).toBe(404);
    } finally {
      await setCompany(null);
      await forgetDocuments(sub.id);
    }
  });

  it('offers no XRechnung of an earlier invoice for a company name the portal took after its day', async () => {
    const { sub, recipient } = await invoiceCase();
    const offered = async () =>
      (
        (await client.get(`/subscriptions/${sub.id}/payment-history`)).body as Awaited<
          ReturnType<typeof invoiceCase>
        >['history']
      ).items.map((item) => item.xRechnung);
    await forgetDocuments(sub.id);
    // A change of the portal's (not the order system's write): pending on the record, made today.
    await db.query(`update business_partners set company1 = $3 where tenant_id = $1 and bp_number = $2`, [
      tenant.id,
      recipient,
      'Wagner & Partner GmbH',
    ]);
    try {
      const before = await offered();
      expect(before.length).toBeGreaterThan(0);
      expect(before).not.toContain(true);
      // The same change made before the invoices' days: they were issued to the company.
      await db.query(
        `update order_system_overlays set created_at = now() - interval '5 years'
          where tenant_id = $1 and entity = 'business-partners' and record_key = $2`,
        [tenant.id, recipient],
      );
      expect(await offered()).not.toContain(false);
    } finally {
      await asTheOrderSystem(
        `update business_partners set company1 = null where tenant_id = $1 and bp_number = $2`,
        [tenant.id, recipient],
      );
      await db.query(
        `delete from order_system_overlays where tenant_id = $1 and entity = 'business-partners' and record_key = $2`,
        [tenant.id, recipient],
      );
      await forgetDocuments(sub.id);
    }
  });

  it('serves the invoice PDF with factur-x.xml embedded', async () => {
    const { sub, history } = await invoiceCase();
    const file = await fetchFile(
      api(`/subscriptions/${sub.id}/invoices/${history.items[0].id}/download`),
      client.accessToken,
    );
    expect(file.status).toBe(200);
    const pdf = await getDocument({ data: new Uint8Array(file.bytes), isEvalSupported: false }).promise;
    const attachments = (await pdf.getAttachments()) as Record<
      string,
      { filename: string; content: Uint8Array }
    >;
    const xml = new TextDecoder().decode(
      Object.values(attachments).find((a) => a.filename === 'factur-x.xml')!.content,
    );
    expect(xml).toContain('urn:cen.eu:en16931:2017');
    expect(xml).toContain(`<ram:ID>${history.items[0].invoiceNumber}</ram:ID>`);
  });

  it('offers no XRechnung of an invoice to a private person: the history says so, the download is 404', async () => {
    const { sub, history } = await invoiceCase();
    expect(history.items.map((item) => item.xRechnung)).not.toContain(true);
    const answer = await fetchFile(
      api(`/subscriptions/${sub.id}/invoices/${history.items[0].id}/xrechnung`),
      client.accessToken,
    );
    expect(answer.status).toBe(404);
  });

  it('serves the XRechnung of an invoice to a business beside the PDF, valid against the CII schema', async () => {
    const { sub, recipient } = await invoiceCase();
    await asTheOrderSystem(
      `update business_partners set company1 = $3 where tenant_id = $1 and bp_number = $2`,
      [tenant.id, recipient, 'Wagner & Partner GmbH'],
    );
    await forgetDocuments(sub.id);
    try {
      const history = (await client.get(`/subscriptions/${sub.id}/payment-history`)).body as Awaited<
        ReturnType<typeof invoiceCase>
      >['history'];
      expect(history.items.map((item) => item.xRechnung)).not.toContain(false);
      const invoice = history.items[0];
      const file = await fetchFile(
        api(`/subscriptions/${sub.id}/invoices/${invoice.id}/xrechnung`),
        client.accessToken,
      );
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(file.headers.get('content-disposition')).toBe(
        `attachment; filename="${invoice.documentId}-xrechnung.xml"`,
      );
      expect(file.headers.get('cache-control')).toBe('private, no-store');
      const xml = new TextDecoder().decode(file.bytes);
      expect(xml).toContain('urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0');
      expect(xml).toContain('Wagner &amp; Partner GmbH');
      expect(xml).toContain(`<ram:ID>${invoice.invoiceNumber}</ram:ID>`);
      if (missingValidators().every((m) => !m.startsWith('xmllint'))) {
        const dir = mkdtempSync(path.join(tmpdir(), 'portal-xrechnung-'));
        try {
          writeFileSync(path.join(dir, 'x.xml'), xml);
          const check = xsdCheck([path.join(dir, 'x.xml')]);
          expect(check.ok, check.output).toBe(true);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
      // The PDF download's checks: no session, no answer.
      expect(
        (await fetchFile(api(`/subscriptions/${sub.id}/invoices/${invoice.id}/xrechnung`), undefined)).status,
      ).toBe(401);
      expect(
        (
          await fetchFile(
            api(`/subscriptions/${sub.id}/invoices/no-such-payment/xrechnung`),
            client.accessToken,
          )
        ).status,
      ).toBe(404);
    } finally {
      await asTheOrderSystem(
        `update business_partners set company1 = null where tenant_id = $1 and bp_number = $2`,
        [tenant.id, recipient],
      );
      await forgetDocuments(sub.id);
    }
  });

  it('addresses the invoice with the address as the portal shows it: address lines after a change on an address-lines tenant', async () => {
    const { sub, recipient, history } = await invoiceCase();
    const [before] = await db.query<{
      street: string | null;
      street_number: string | null;
      details: unknown;
    }>(
      `select street, street_number, details from business_partners where tenant_id = $1 and bp_number = $2`,
      [tenant.id, recipient],
    );
    // What an address change on a tenant with `address-lines` writes (account-flows.md §5): the
    // street goes into the address lines (details), the street columns are emptied.
    await asTheOrderSystem(
      `update business_partners set street = null, street_number = null, zipcode = '10969', city = 'Berlin',
              details = details || '{"addressLine1": "Oranienstraße 25", "addressLine2": "Hinterhaus"}'::jsonb
        where tenant_id = $1 and bp_number = $2`,
      [tenant.id, recipient],
    );
    await forgetDocuments(sub.id);
    try {
      const file = await fetchFile(
        api(`/subscriptions/${sub.id}/invoices/${history.items[0].id}/download`),
        client.accessToken,
      );
      expect(file.status).toBe(200);
      expect((await pdfText(file.bytes)).text).toMatch(/Oranienstraße 25 Hinterhaus 10969 Berlin/);
      const pdf = await getDocument({ data: new Uint8Array(file.bytes), isEvalSupported: false }).promise;
      const attachments = (await pdf.getAttachments()) as Record<string, { content: Uint8Array }>;
      const xml = new TextDecoder().decode(Object.values(attachments)[0].content);
      const buyer = /<ram:BuyerTradeParty>[\s\S]*?<\/ram:BuyerTradeParty>/.exec(xml)![0];
      expect(buyer).toContain('<ram:LineOne>Oranienstraße 25</ram:LineOne>');
      expect(buyer).toContain('<ram:LineTwo>Hinterhaus</ram:LineTwo>');
      expect(buyer).toContain('<ram:CityName>Berlin</ram:CityName>');
    } finally {
      await asTheOrderSystem(
        `update business_partners set street = $3, street_number = $4, details = $5 where tenant_id = $1 and bp_number = $2`,
        [tenant.id, recipient, before.street, before.street_number, JSON.stringify(before.details)],
      );
      await forgetDocuments(sub.id);
    }
  });

  it("names the invoice's lines in the invoice's language, as the subscription screens name the product", async () => {
    const { sub, history } = await invoiceCase();
    const [before] = await db.query<{ details: unknown }>(
      `select details from subscriptions where tenant_id = $1 and id = $2`,
      [tenant.id, sub.id],
    );
    await db.query(
      `update subscriptions set details = details || $3::jsonb where tenant_id = $1 and id = $2`,
      [
        tenant.id,
        sub.id,
        JSON.stringify({
          displayName: 'Testzeitung – Druckausgabe',
          translations: { 'en-GB': { displayName: 'Test paper – Print edition' } },
        }),
      ],
    );
    try {
      // The screen speaks German (no Accept-Language: the tenant's default), the file is asked for in English.
      const url = api(`/subscriptions/${sub.id}/invoices/${history.items[0].id}/download?lang=en-GB`);
      const file = await fetchFile(url, client.accessToken);
      expect(file.status).toBe(200);
      const { text } = await pdfText(file.bytes);
      expect(text).toContain('Test paper – Print edition');
      expect(text).not.toContain('Druckausgabe');
      const pdf = await getDocument({ data: new Uint8Array(file.bytes), isEvalSupported: false }).promise;
      const attachments = (await pdf.getAttachments()) as Record<string, { content: Uint8Array }>;
      const xml = new TextDecoder().decode(Object.values(attachments)[0].content);
      expect(xml).toContain('<ram:Name>Test paper – Print edition</ram:Name>');
    } finally {
      await db.query(`update subscriptions set details = $3 where tenant_id = $1 and id = $2`, [
        tenant.id,
        sub.id,
        JSON.stringify(before.details),
      ]);
    }
  });

  it("renders the order system's lines and paid amount: two rates, what was paid, what is due", async () => {
    const { sub, history } = await invoiceCase();
    const invoice = history.items[0];
    const [before] = await db.query<{ amount: string; invoice_status_code: string }>(
      `select amount::text, invoice_status_code from payment_history where tenant_id = $1 and subscription_id = $2 and id = $3`,
      [tenant.id, sub.id, invoice.id],
    );
    // As the operator API and the import store a record with lines (schemas/api/order-system-payment.schema.json),
    // its status code "paid" though the paid amount is a part: the amount decides what is shown.
    await db.query(
      `update payment_history set amount = 120.92, invoice_status_code = 'A', paid_amount = 50, lines = $4
        where tenant_id = $1 and subscription_id = $2 and id = $3`,
      [
        tenant.id,
        sub.id,
        invoice.id,
        JSON.stringify([
          {
            description: 'Druckausgabe',
            quantity: 3,
            unitPrice: '35.31',
            vatCategory: 'S',
            vatRatePercent: 7,
          },
          { description: 'Digital-Zugang', unitPrice: '14.99', vatCategory: 'S', vatRatePercent: 19 },
        ]),
      ],
    );
    try {
      const file = await fetchFile(
        api(`/subscriptions/${sub.id}/invoices/${invoice.id}/download`),
        client.accessToken,
      );
      expect(file.status).toBe(200);
      const { text } = await pdfText(file.bytes);
      expect(text).toContain('Druckausgabe 3 × 35,31 €');
      expect(text).toContain('Umsatzsteuer 19 % auf 12,60 €');
      expect(text).toContain('Umsatzsteuer 7 % auf 99,00 €');
      expect(text).toContain('Bereits bezahlt 50,00 €');
      expect(text).toContain('Noch zu zahlen 70,92 €');
      expect(text).toMatch(/Status\s+teilweise bezahlt/);
      const shown = (await client.get(`/subscriptions/${sub.id}/payment-history`)).body as {
        items: Array<{ id: string; invoiceStatusCode: string }>;
      };
      expect(shown.items.find((item) => item.id === invoice.id)?.invoiceStatusCode).toBe('T');
      const pdf = await getDocument({ data: new Uint8Array(file.bytes), isEvalSupported: false }).promise;
      const attachments = (await pdf.getAttachments()) as Record<string, { content: Uint8Array }>;
      const xml = new TextDecoder().decode(Object.values(attachments)[0].content);
      expect(xml).toContain('<ram:TotalPrepaidAmount>50.00</ram:TotalPrepaidAmount>');
      expect(xml).toContain('<ram:DuePayableAmount>70.92</ram:DuePayableAmount>');
      expect(xml.match(/<ram:IncludedSupplyChainTradeLineItem>/g)).toHaveLength(2);
    } finally {
      await db.query(
        `update payment_history set amount = $4, invoice_status_code = $5, paid_amount = null, lines = null
          where tenant_id = $1 and subscription_id = $2 and id = $3`,
        [tenant.id, sub.id, invoice.id, before.amount, before.invoice_status_code],
      );
    }
  });

  it('shows the demo business customer (its own login) the XRechnung beside the PDF of its two-rate, partly paid invoice', async () => {
    const demo = buildDemoData(tenant as Parameters<typeof buildDemoData>[0], clock);
    const login = demo.logins.find((l) => l.description.includes('business customer'))!;
    const { client: business } = await signInByMagicLink(outbox, {
      baseUrl,
      tenantId: tenant.id,
      email: login.email,
    });
    const own = (await business.get<Subscription[]>('/subscriptions')).body;
    const withLines = own.find((s) => s.displayName && s.roles.includes('RE') && !s.isMultiLicense)!;
    const history = (await business.get(`/subscriptions/${withLines.id}/payment-history`)).body as {
      items: Array<{ id: string; invoiceStatusCode: string; xRechnung?: boolean }>;
    };
    const newest = history.items[0];
    expect(newest.xRechnung).toBe(true);
    expect(newest.invoiceStatusCode).toBe('T');
    const file = await fetchFile(
      api(`/subscriptions/${withLines.id}/invoices/${newest.id}/xrechnung`),
      business.accessToken,
    );
    expect(file.status).toBe(200);
    const xml = new TextDecoder().decode(file.bytes);
    expect(xml.match(/<ram:IncludedSupplyChainTradeLineItem>/g)).toHaveLength(2);
    expect(xml).toContain('<ram:RateApplicablePercent>19</ram:RateApplicablePercent>');
    expect(xml).toContain('<ram:TotalPrepaidAmount>');
  });
});
