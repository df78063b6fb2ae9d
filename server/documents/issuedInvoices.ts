/**
 * Issued invoice documents, made once and kept (docs/invoices.md "Issued documents, made once").
 *
 * An invoice is an immutable document, so its PDF (the hybrid ZUGFeRD / Factur-X file, about a
 * quarter of a second of work each, invoicePdf.ts) and its XRechnung are made once and kept in
 * PostgreSQL (migration 031), not made again on every download: the subscription page's download,
 * the XRechnung download and "Download my data" all come here. A kept document is found by its
 * invoice (tenant, subscription, payment), its form and language, and a fingerprint of everything
 * that goes into it (documentFingerprint below): the same fingerprint serves the kept bytes, a
 * changed input makes and keeps a new document.
 *
 * **Whom an invoice is addressed to is fixed when it is first made.** An issued invoice does not
 * change: the order system's own copy names the billed party as it was when it was issued, and a
 * second document under the same number with another address would be a different invoice. So
 * the first document made of an invoice keeps the billed party it names (migration 050), and every
 * later document of that invoice — another language, the XRechnung, a new renderer version, a
 * correction of the record by the order system — names the same party, also after the partner
 * moved (account-flows.md §5 address change). The background job makes every invoice's document
 * soon after its record arrives (server/jobs/invoiceDocuments.ts), so that is the address of its
 * day. A correction of the record (an amount, a line, the paid amount) is the order system's
 * reissue and reaches the subscriber: it is part of the fingerprint, as is the party as used.
 *
 * **Made once, also when asked twice at once.** Two requests for a document not kept yet (a
 * double click, the export and the background job, two instances) wait for each other: within a
 * process on one promise, across processes on a transaction-scoped advisory lock on the document's
 * key, under which the second finds the first one's row and makes nothing.
 *
 * **Made in a worker thread** (documentWorker.ts) that ends when idle, so the libraries a document
 * needs leave the server's heap again.
 */
import { createHash } from 'node:crypto';
import type { Database } from '../db/database';
import {
  findIssuedDocument,
  issuedBilledParties,
  issuedBilledParty,
  keepIssuedDocument,
  touchIssuedDocument,
  type IssuedDocumentKey,
  type IssuedFormat,
} from '../store/issuedInvoiceDocumentStore';
import { lockUntilCommit } from '../store/transactionLocks';
import { recordChangesMade, type RecordChangeMade } from '../store/orderSystemOverlays';
import { nameOnDay } from '../store/subscriptionStore';
import { issuedDocuments } from '../metrics/registry';
import type { BilledParty, InvoiceInput } from './invoiceModel';
import { invoicePdfInWorker, xRechnungInWorker } from './documentWorker';

/**
 * The renderer's version, part of every fingerprint. Raise it with any change of what a document
 * looks like or states (layout, texts, the e-invoice's XML, the library's version): every kept
 * document is then made anew on its next request, and the old ones expire as superseded.
 */
export const INVOICE_RENDERER_VERSION = 1;

/** A served document is touched at most once in this time (it only feeds the expiry of superseded ones). */
const TOUCH_AFTER_MS = 86_400_000;

/** The invoice a document is of: the caller has checked that the user may download it. */
export interface IssuedInvoice {
  tenantId: string;
  subscriptionId: string;
  input: InvoiceInput;
}

/** Objects with their keys sorted and undefined left out, so equal inputs give equal JSON. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object' && !Buffer.isBuffer(value))
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  return value;
}

/**
 * What goes into the document, and nothing that does not: the seller as the tenant file states it
 * (name, logo, brand colour, contact, the invoice section), the subscription's facts the invoice
 * prints (InvoiceSubscription), the payment record with its lines and paid amount, the billed
 * party as used (its name and address; not whether it is the viewer's own partner), the language
 * and form, and the renderer's version.
 */
export function documentFingerprint(format: IssuedFormat, input: InvoiceInput): string {
  const { tenant, subscription, payment, billedTo } = input;
  const facts = {
    renderer: INVOICE_RENDERER_VERSION,
    format,
    locale: input.locale,
    seller: {
      name: tenant.name,
      defaultLocale: tenant.defaultLocale,
      logoUrl: tenant.logoUrl,
      colors: tenant.themeTokens?.colors && {
        primary: tenant.themeTokens.colors.primary,
        onPrimary: tenant.themeTokens.colors.onPrimary,
      },
      contact: tenant.contact,
      invoice: tenant.invoice,
    },
    subscription: {
      displayName: subscription.displayName,
      publication: subscription.publication,
      publicationName: subscription.publicationName,
      orderNumber: subscription.orderNumber,
      billingFrequency: subscription.billingFrequency ?? null,
      validToOnSaleDate: subscription.validToOnSaleDate ?? null,
    },
    payment: {
      id: payment.id,
      date: payment.date,
      amount: Number(payment.amount),
      currency: payment.currency,
      invoiceStatusCode: payment.invoiceStatusCode,
      invoiceNumber: payment.invoiceNumber ?? null,
      externalDocumentNumber: payment.externalDocumentNumber ?? null,
      documentId: payment.documentId ?? null,
      paidAmount: payment.paidAmount == null ? null : Number(payment.paidAmount),
      lines: payment.lines ?? null,
    },
    billedTo: billedTo && { ...billedTo, mine: undefined },
    lines: input.lines,
  };
  return createHash('sha256')
    .update(JSON.stringify(canonical(facts)))
    .digest('hex');
}

const inFlight = new Map<string, Promise<Buffer>>();

/**
 * The kept document of `key`, else the one `make` makes, kept before it is answered. Counted as
 * portal_issued_documents_total{format, source: kept | made}.
 */
async function keptOrMade(
  db: Database,
  key: IssuedDocumentKey,
  billedTo: InvoiceInput['billedTo'],
  make: () => Promise<Buffer>,
  now: () => Date,
): Promise<Buffer> {
  const name = JSON.stringify(keyArgs(key));
  const waiting = inFlight.get(name);
  if (waiting) return waiting;
  const work = (async () => {
    const kept = await findIssuedDocument(db, key);
    if (kept) {
      issuedDocuments.inc({ format: key.format, source: 'kept' });
      const at = now();
      if (at.getTime() - kept.servedAt.getTime() > TOUCH_AFTER_MS) await touchIssuedDocument(db, key, at);
      return kept.document;
    }
    return db.transaction(async (tx) => {
      // Another instance may be making it: wait for it, then take its row.
      await lockUntilCommit(tx, `issued-invoice:${name}`);
      const madeMeanwhile = await findIssuedDocument(tx, key);
      if (madeMeanwhile) {
        issuedDocuments.inc({ format: key.format, source: 'kept' });
        return madeMeanwhile.document;
      }
      const document = await make();
      await keepIssuedDocument(tx, key, document, billedTo && { ...billedTo, mine: undefined }, now());
      issuedDocuments.inc({ format: key.format, source: 'made' });
      return document;
    });
  })();
  inFlight.set(name, work);
  try {
    return await work;
  } finally {
    inFlight.delete(name);
  }
}

const keyArgs = (key: IssuedDocumentKey) => [
  key.tenantId,
  key.subscriptionId,
  key.paymentId,
  key.format,
  key.locale,
  key.fingerprint,
];

function keyOf(format: IssuedFormat, invoice: IssuedInvoice): IssuedDocumentKey {
  return {
    tenantId: invoice.tenantId,
    subscriptionId: invoice.subscriptionId,
    paymentId: invoice.input.payment.id,
    format,
    locale: invoice.input.locale,
    fingerprint: documentFingerprint(format, invoice.input),
  };
}

export interface IssuedInvoiceOptions {
  now?: () => Date;
}

/**
 * The columns and `details` keys of a business partner (server/operator/entities) that an invoice's
 * billed party names, by the field of BilledParty they fill.
 */
const BILLED_PARTY_PATHS: Readonly<Record<string, keyof BilledParty>> = {
  first_name: 'firstName',
  last_name1: 'lastName1',
  company1: 'company1',
  street: 'street',
  street_number: 'streetNumber',
  zipcode: 'zipcode',
  city: 'city',
  country_code: 'countryCode',
  email_address: 'emailAddress',
  'details.addressLine1': 'addressLine1',
  'details.addressLine2': 'addressLine2',
  'details.addressLine3': 'addressLine3',
  'details.streetNumberSuffix': 'streetNumberSuffix',
};

/**
 * The billed party as it was on `day`: each field a change of the portal's made on a later day
 * wrote has the value of the last change made by that day, else the order system's (`changes`,
 * oldest first). An invoice whose first document is made only after the subscriber moved (the
 * background job had not reached it yet, or its record arrived late) is addressed as the order
 * system issued it, not to the address entered after its date (account-flows.md §5 address
 * change: the change is pending on the order system's record, which the invoice was made from).
 */
export function billedPartyOnDay(
  party: BilledParty,
  changes: readonly RecordChangeMade[],
  day: string,
): BilledParty {
  const onDay: Record<string, unknown> = { ...party };
  const later = new Set(
    changes.filter((change) => change.madeOn > day).flatMap((change) => Object.keys(change.fields)),
  );
  for (const path of later) {
    const field = BILLED_PARTY_PATHS[path];
    if (!field) continue;
    const byThen = changes.filter((change) => change.madeOn <= day && path in change.fields).at(-1);
    const [value] = byThen
      ? byThen.fields[path]
      : (changes.find((change) => path in change.base)?.base[path] ?? []);
    onDay[field] = typeof value === 'string' ? value : null;
  }
  return onDay as BilledParty;
}

/** The portal's changes of the partner still on its record (none without a partner or an invoice). */
async function partnerChanges(
  db: Database,
  tenantId: string,
  party: BilledParty | undefined,
  days: readonly string[],
): Promise<RecordChangeMade[]> {
  if (!party?.bpNumber || days.length === 0) return [];
  return recordChangesMade(db, tenantId, 'business-partners', party.bpNumber);
}

/**
 * The invoice as it was issued: under the name the subscription had on the invoice's day, where the
 * portal renamed it since (an upgrade that applied at once, store/subscriptionStore.ts nameOnDay),
 * and addressed to the party its first document named (see above), else to the partner as it was
 * on the invoice's day (billedPartyOnDay). An issued invoice names what it was issued for and whom,
 * not what the subscription and the partner are today.
 */
async function asIssued(db: Database, invoice: IssuedInvoice): Promise<IssuedInvoice> {
  const { subscription, payment, locale, billedTo } = invoice.input;
  const [name, issuedTo] = await Promise.all([
    nameOnDay(db, invoice.tenantId, invoice.subscriptionId, payment.date, locale),
    issuedBilledParty(db, { ...invoice, paymentId: payment.id }),
  ]);
  const input = { ...invoice.input };
  if (name !== null && name !== subscription.displayName)
    input.subscription = { ...subscription, displayName: name };
  if (issuedTo) input.billedTo = { ...(issuedTo as NonNullable<InvoiceInput['billedTo']>) };
  else if (billedTo) {
    const changes = await partnerChanges(db, invoice.tenantId, billedTo, [payment.date]);
    if (changes.length > 0) input.billedTo = billedPartyOnDay(billedTo, changes, payment.date);
  }
  return input.subscription === subscription && input.billedTo === billedTo ? invoice : { ...invoice, input };
}

/**
 * Whom each of these invoices of a subscription is addressed to: the party its first kept document
 * named (see above), else `current` (the partner on record today) as it was on the invoice's day,
 * with whom its first document will be made. What an invoice's XRechnung depends on (a business as
 * the billed party), decided as the documents themselves are made: an invoice issued to a company
 * keeps its XRechnung after the partner's company name is gone, one issued to a private person
 * gets none later.
 */
export async function invoicesAddressedTo(
  db: Database,
  subscription: { tenantId: string; subscriptionId: string },
  invoices: ReadonlyArray<{ id: string; date: string }>,
  current: BilledParty | undefined,
): Promise<Map<string, BilledParty | undefined>> {
  const issued = await issuedBilledParties(
    db,
    subscription,
    invoices.map((invoice) => invoice.id),
  );
  const notMadeYet = invoices.filter((invoice) => !issued.has(invoice.id));
  const changes = await partnerChanges(
    db,
    subscription.tenantId,
    current,
    notMadeYet.map((invoice) => invoice.date),
  );
  return new Map(
    invoices.map((invoice) => [
      invoice.id,
      (issued.get(invoice.id) as BilledParty | undefined) ??
        (current && changes.length > 0 ? billedPartyOnDay(current, changes, invoice.date) : current),
    ]),
  );
}

/** The invoice PDF (hybrid ZUGFeRD / Factur-X where the tenant's settings allow), made once. */
export async function issuedInvoicePdf(
  db: Database,
  asked: IssuedInvoice,
  options: IssuedInvoiceOptions = {},
): Promise<Buffer> {
  const invoice = await asIssued(db, asked);
  return keptOrMade(
    db,
    keyOf('pdf', invoice),
    invoice.input.billedTo,
    () => invoicePdfInWorker(invoice.input),
    options.now ?? (() => new Date()),
  );
}

/** The XRechnung (CII) of an invoice, made once; the caller checks canMakeXRechnung and isBusiness. */
export async function issuedXRechnung(
  db: Database,
  asked: IssuedInvoice,
  options: IssuedInvoiceOptions = {},
): Promise<string> {
  const invoice = await asIssued(db, asked);
  const document = await keptOrMade(
    db,
    keyOf('xrechnung', invoice),
    invoice.input.billedTo,
    () => xRechnungInWorker(invoice.input),
    options.now ?? (() => new Date()),
  );
  return document.toString('utf8');
}
