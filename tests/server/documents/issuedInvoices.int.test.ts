/**
 * Issued invoice documents, made once and kept (docs/invoices.md "Issued documents, made once";
 * server/documents/issuedInvoices.ts): on seeded demo data, through the API where a subscriber
 * asks, the renders counted by portal_issued_documents_total (made: rendered; kept: from the store).
 * The background job fills the store; a download and the data export then serve the same bytes; a
 * corrected payment record or a new address makes a new document; two downloads at once make one;
 * account deletion and the housekeeping remove the rows.
 */
import path from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app';
import type { Database } from '../../../server/db/database';
import { seedDemoData } from '../../../server/seed';
import { zipOfAccount } from '../../../server/data-export/dataExportService';
import { makeInvoiceDocuments } from '../../../server/jobs/invoiceDocuments';
import { issuedDocuments } from '../../../server/metrics/registry';
import { deleteExpiredRows } from '../../../server/store/housekeepingStore';
import { deleteAccountData } from '../../../server/store/accountDeletionStore';
import { exportPaymentHistory } from '../../../server/store/dataExportStore';
import { findUserByEmail } from '../../../server/store/userStore';
import type { Subscription } from '../../../schemas/generated/subscription';
import { getTestDatabase, uniqueTenantId } from '../../support/database';
import { browserLikeClient, listen } from '../../support/apiClient';
import { makeServerTenant } from '../../support/builders';
import { createTestOutbox, signInByMagicLink } from '../../support/outbox';
import { fetchFile, pdfText } from './pdfText';

const id = uniqueTenantId('issued');
// Plain invoice PDFs (without the seller's split address no Factur-X step, docs/invoices.md
// "E-invoices"): the store keeps whatever the renderer makes, and the job's test makes every invoice
// of the tenant. The e-invoices themselves are checked in eInvoice.test.ts and xRechnungDownload.int.test.ts.
const tenant = makeServerTenant({
  id,
  name: `Verlag ${id}`,
  hosts: [`${id}.test`],
  defaultLocale: 'de-DE',
  locales: ['de-DE', 'en-GB'],
  features: ['payment-history', 'invoice-download'],
  embedding: { isEmbedded: false, parentOrigins: [] },
  login: { magicLink: true, password: false, sessionIdleMinutes: 30 },
  contact: {
    email: 'leser@dokumente.example',
    fallbackEmail: 'leser@dokumente.example',
    fallbackPhone: '+49 341 1',
  },
  invoice: {
    publisher: {
      name: 'Dokumente Verlag GmbH',
      addressLines: ['Am Markt 3', '04109 Leipzig'],
      vatId: 'DE999888777',
    },
    vatRatePercent: 7,
    bankAccount: { iban: 'DE89370400440532013000' },
  },
});

const outbox = createTestOutbox('portal-issued-outbox-');
const clock = new Date();
let db: Database;
let baseUrl: string;
let close: () => Promise<void>;
let client: ReturnType<typeof browserLikeClient>;
let userId: string;
let email: string;
/** The user's subscriptions it orders, with the ids of their invoices (payments with a document). */
let invoices: Array<{ sub: Subscription; paymentId: string; documentId: string }>;

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
  email = logins.filter((l) => l.tenantId === tenant.id)[0].email;
  userId = (await findUserByEmail(db, tenant.id, email))!.id;
  ({ client } = await signInByMagicLink(outbox, { baseUrl, tenantId: tenant.id, email }));
  const subscriptions = (await client.get<Subscription[]>('/subscriptions')).body.filter((s) =>
    s.roles.includes('AG'),
  );
  invoices = [];
  for (const sub of subscriptions) {
    const history = await client.get<{ items: Array<{ id: string; documentId: string | null }> }>(
      `/subscriptions/${sub.id}/payment-history`,
    );
    if (history.status !== 200) continue; // a subscription whose history the page does not show
    for (const item of history.body.items)
      if (item.documentId) invoices.push({ sub, paymentId: item.id, documentId: item.documentId });
  }
  expect(invoices.length, 'the demo subscriber has invoices to download').toBeGreaterThan(2);
});

afterAll(async () => close?.());

const download = (invoice: (typeof invoices)[number], lang: string) =>
  fetchFile(
    `${baseUrl}/t/${tenant.id}/api/subscriptions/${invoice.sub.id}/invoices/${invoice.paymentId}/download?lang=${lang}`,
    client.accessToken,
  );

/** PDFs made (rendered) and served kept so far in this process. */
async function renders(): Promise<{ made: number; kept: number }> {
  const { values } = await issuedDocuments.get();
  const sum = (source: string) =>
    values
      .filter((v) => v.labels.format === 'pdf' && v.labels.source === source)
      .reduce((total, v) => total + v.value, 0);
  return { made: sum('made'), kept: sum('kept') };
}

const keptRows = async (invoice: (typeof invoices)[number], locale: string) =>
  db.query<{ fingerprint: string; document: Buffer }>(
    `select fingerprint, document from issued_invoice_documents
      where tenant_id = $1 and subscription_id = $2 and payment_id = $3 and format = 'pdf' and locale = $4
      order by made_at`,
    [tenant.id, invoice.sub.id, invoice.paymentId, locale],
  );

async function exportedInvoices(locale: 'de-DE' | 'en-GB'): Promise<Record<string, Buffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of zipOfAccount(db, tenant, userId, locale, clock)) chunks.push(chunk as Buffer);
  const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
  return Object.fromEntries(
    Object.entries(files)
      .filter(([name]) => name.startsWith('invoices/'))
      .map(([name, bytes]) => [name, Buffer.from(bytes)]),
  );
}

/** The invoices of the account's export: of every subscription an own partner pays for (AG or RE). */
const exportable = async () =>
  (await exportPaymentHistory(db, tenant.id, userId)).filter((payment) => payment.documentId).length;

describe('the background job', () => {
  it('makes the documents of invoices that have none, a few a round, as their download would', async () => {
    const before = await renders();
    expect(await makeInvoiceDocuments(db, { tenants: [tenant], perRound: 2 })).toBe(2);
    expect((await renders()).made - before.made).toBe(2);
    // Round after round until every invoice an account pays for has its document in the tenant's language.
    for (let round = 0; round < 50 && (await makeInvoiceDocuments(db, { tenants: [tenant] })) > 0; round++);
    const [{ missing }] = await db.query<{ missing: number }>(
      `select count(*)::int as missing from payment_history ph
        where ph.tenant_id = $1 and ph.document_id is not null
          and exists (select 1 from subscription_roles r join user_business_partners ubp
                        on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
                       where r.tenant_id = ph.tenant_id and r.subscription_id = ph.subscription_id and r.role in ('AG', 'RE'))
          and not exists (select 1 from issued_invoice_documents d where d.tenant_id = ph.tenant_id
                           and d.subscription_id = ph.subscription_id and d.payment_id = ph.id and d.locale = 'de-DE')`,
      [tenant.id],
    );
    expect(missing).toBe(0);
    // The subscriber's download in the tenant's language, and the export in it, find them kept.
    const made = (await renders()).made;
    const file = await download(invoices[0], 'de-DE');
    expect(file.status).toBe(200);
    expect(file.bytes.equals((await keptRows(invoices[0], 'de-DE'))[0].document)).toBe(true);
    const exported = await exportedInvoices('de-DE');
    expect(Object.keys(exported)).toHaveLength(await exportable());
    expect((await renders()).made).toBe(made);
  });
});

describe('a download', () => {
  it('serves the same bytes twice, made once', async () => {
    const invoice = invoices[0];
    const before = await renders();
    const first = await download(invoice, 'en-GB');
    const second = await download(invoice, 'en-GB');
    expect(first.status).toBe(200);
    expect(second.bytes.equals(first.bytes)).toBe(true);
    const after = await renders();
    expect(after.made - before.made).toBe(1);
    expect(after.kept - before.kept).toBe(1);
    expect(await keptRows(invoice, 'en-GB')).toHaveLength(1);
  });

  it('makes a new document when the order system corrects the payment record, and serves it from then on', async () => {
    const invoice = invoices[0];
    const old = await download(invoice, 'en-GB');
    await db.transaction(async (tx) => {
      await tx.query(`set local portal.order_system_write = 'on'`);
      await tx.query(
        `update payment_history set invoice_number = '9000999001' where tenant_id = $1 and subscription_id = $2 and id = $3`,
        [tenant.id, invoice.sub.id, invoice.paymentId],
      );
    });
    const before = await renders();
    const corrected = await download(invoice, 'en-GB');
    expect(corrected.bytes.equals(old.bytes)).toBe(false);
    expect((await pdfText(corrected.bytes)).text).toContain('9000999001');
    expect((await download(invoice, 'en-GB')).bytes.equals(corrected.bytes)).toBe(true);
    expect((await renders()).made - before.made).toBe(1);
    // The old version stays beside it until the housekeeping finds it superseded and unserved.
    const rows = await keptRows(invoice, 'en-GB');
    expect(rows).toHaveLength(2);
    await db.query(
      `update issued_invoice_documents set made_at = made_at - interval '40 days', served_at = served_at - interval '40 days'
        where tenant_id = $1 and fingerprint = $2`,
      [tenant.id, rows[0].fingerprint],
    );
    await deleteExpiredRows(db, new Date());
    expect((await keptRows(invoice, 'en-GB')).map((row) => row.fingerprint)).toEqual([rows[1].fingerprint]);
  });

  it('keeps whom the invoice was addressed to when the billed party moves, in every language and form', async () => {
    const invoice = invoices[1];
    const old = await download(invoice, 'en-GB');
    const street = (bytes: Buffer) => pdfText(bytes).then(({ text }) => text.includes('Oranienstraße 77'));
    const [buyer] = await db.query<{ bp: string }>(
      `select r.bp_number::text as bp from subscription_roles r where r.tenant_id = $1 and r.subscription_id = $2
        order by case r.role when 'RE' then 0 when 'AG' then 1 else 2 end limit 1`,
      [tenant.id, invoice.sub.id],
    );
    await db.query(
      `update business_partners set street = 'Oranienstraße', street_number = '77', details = coalesce(details, '{}'::jsonb) - 'addressLine1'
        where tenant_id = $1 and bp_number = $2`,
      [tenant.id, buyer.bp],
    );
    // The same invoice: the same bytes, not the new street.
    const after = await download(invoice, 'en-GB');
    expect(after.bytes.equals(old.bytes)).toBe(true);
    expect(await street(after.bytes)).toBe(false);
    // Its first German document is made now, and names the party the invoice was issued to.
    const german = await download(invoice, 'de-DE');
    expect(german.status).toBe(200);
    expect(await street(german.bytes)).toBe(false);
    // An invoice of an earlier day whose first document is made only after the move (the job had
    // not reached it): addressed as on its day, not to the street entered since.
    const fresh = invoices.find(
      (other) => other.sub.id === invoice.sub.id && other.paymentId !== invoice.paymentId,
    );
    expect(fresh, 'a second invoice of the same subscription').toBeDefined();
    const forget = () =>
      db.query(
        `delete from issued_invoice_documents where tenant_id = $1 and subscription_id = $2 and payment_id = $3`,
        [tenant.id, fresh!.sub.id, fresh!.paymentId],
      );
    const [{ date }] = await db.query<{ date: string }>(
      `select to_char(date, 'YYYY-MM-DD') as date from payment_history where tenant_id = $1 and id = $2`,
      [tenant.id, fresh!.paymentId],
    );
    expect(date < clock.toISOString().slice(0, 10), 'an invoice of a day before the move').toBe(true);
    await forget();
    expect(await street((await download(fresh!, 'en-GB')).bytes)).toBe(false);
    // A move made before the invoice's day is the address it was issued to.
    await forget();
    await db.query(
      `update order_system_overlays set created_at = $3::date - 1
        where tenant_id = $1 and entity = 'business-partners' and record_key = $2`,
      [tenant.id, buyer.bp, date],
    );
    expect(await street((await download(fresh!, 'en-GB')).bytes)).toBe(true);
    await forget(); // as it was for the tests below
  });

  it('makes one document of two downloads at the same moment', async () => {
    const invoice = invoices[2];
    const before = await renders();
    const [a, b] = await Promise.all([download(invoice, 'en-GB'), download(invoice, 'en-GB')]);
    expect(a.status).toBe(200);
    expect(b.bytes.equals(a.bytes)).toBe(true);
    expect((await renders()).made - before.made).toBe(1);
    expect(await keptRows(invoice, 'en-GB')).toHaveLength(1);
  });
});

describe('the data export', () => {
  it('serves the kept documents: the same bytes as the download, made only where none was kept', async () => {
    const before = await renders();
    const first = await exportedInvoices('en-GB');
    const madeByFirst = (await renders()).made - before.made;
    // Some were downloaded in English above and are served kept (the address change above made
    // the first one's kept version stale too: the same buyer); the rest are made now, once.
    expect(Object.keys(first)).toHaveLength(await exportable());
    expect(madeByFirst).toBeLessThan(await exportable());
    const again = await exportedInvoices('en-GB');
    expect((await renders()).made - before.made).toBe(madeByFirst);
    expect(Object.keys(again).sort()).toEqual(Object.keys(first).sort());
    for (const [name, bytes] of Object.entries(first)) expect(again[name].equals(bytes)).toBe(true);
    const downloaded = await download(invoices[2], 'en-GB');
    expect(Object.values(first).some((bytes) => bytes.equals(downloaded.bytes))).toBe(true);
  });
});

describe('account deletion', () => {
  it('deletes the documents of the invoices the account paid for', async () => {
    const count = async () =>
      (
        await db.query<{ n: number }>(
          `select count(*)::int as n from issued_invoice_documents where tenant_id = $1 and subscription_id = any($2)`,
          [tenant.id, [...new Set(invoices.map((invoice) => invoice.sub.id))]],
        )
      )[0].n;
    expect(await count()).toBeGreaterThan(0);
    await db.transaction((tx) => deleteAccountData(tx, tenant.id, userId, email, clock));
    expect(await count()).toBe(0);
  });
});
