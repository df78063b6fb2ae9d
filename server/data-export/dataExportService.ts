/**
 * "Download my data" (docs/subscribers.md "Download my data"; GDPR Art. 15 right of access, Art. 20
 * portability): a fully signed-in subscriber asks on the tenant's export screen (the account details page,
 * else the customer data page: engine/domain/dataExport.ts), gets an e-mail with a link, and the link
 * downloads a ZIP of what the portal holds about the account — JSON files, the invoices as PDFs and
 * a README in the language asked in, with the tenant's privacy information (exportReadme.ts).
 *
 * How the pieces were chosen:
 *
 * - **No ZIP is prepared and stored.** The request writes one row (the link's hashed token, the
 *   rate limit's record), its account event and its mail, in one transaction; the ZIP is written
 *   from the current data while it downloads, streamed (yazl), invoice PDF by invoice PDF. So no
 *   copy of the export lies on a disk or in a table waiting to leak, and every server instance can
 *   serve the link (the servers stay stateless, docs/architecture.md "Running more than one
 *   instance"). The invoice PDFs are the one exception, and not the export's own: they are the
 *   issued documents the subscription page's download serves too, made once and kept
 *   (server/documents/issuedInvoices.ts, docs/invoices.md "Issued documents, made once"), declared
 *   in the personal-data catalogue and deleted with the account. Rendering each on every export took
 *   25–31 s for 33 invoices, past a client's 30 s time-out. The mail still carries the link: the
 *   address on the account is where the data goes, never an open browser tab someone else may be
 *   sitting at.
 *
 * - **The link needs the token and the same signed-in account, on the same tenant.** Attacker's view:
 *   - a link forwarded by mistake (or read from a mailbox, a mail scanner, a proxy log): the token
 *     alone opens nothing; the download also needs the session of the account that asked, so the
 *     recipient of a forwarded mail gets the login page and then "link not valid";
 *   - a guessed token: 256 random bits, only the SHA-256 stored (a copy of the database opens no
 *     export), compared by the database's unique index — unguessable, and useless without the
 *     session anyway;
 *   - another tenant's host: the session is bound to its tenant (a token from another tenant is
 *     refused as a session at all), and the export is looked up by tenant *and* account, so the same
 *     link on another tenant's host is "not valid", the same answer as an unknown or expired token;
 *   - a stolen session alone: it could ask for an export, but the link goes to the account's own
 *     mailbox, and the request is limited to one a day and recorded as an account event;
 *   - a partial ("logged in only") session of order number + name: refused (403 `partial_login`) by
 *     the session scope of engine/domain/sessionScope.ts — knowing an order number earns nobody a
 *     copy of an account's data.
 *   The link works for 24 hours (EXPORT_LINK_HOURS), as often as needed within them (a download
 *   that broke off can be tried again); each download is counted on the row.
 *
 * - **Never another person's data.** Every read is scoped by tenant and by the account's own user id
 *   or its own business partners (server/store/dataExportStore.ts): the other parties of an order (a
 *   gift's recipient or giver, a company's invoice recipient) appear only as far as the account's
 *   own partners; payments and invoices only of subscriptions an own partner pays for (AG or RE);
 *   a licence manager gets the licensed persons' names only; an e-card's recipient address is masked.
 */
import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';
import type { Database } from '../db/database';
import type { Subscription } from '../../schemas/generated/subscription';
import type { Locale } from '../../engine/domain/locales';
import { maskEmail } from '../../engine/domain/fieldRules';
import { invoiceFileName, invoiceStatusOf } from '../../engine/domain/paymentHistory';
import { hashToken, newSecretToken } from '../auth/tokens';
import { tooMany } from '../auth/rateLimit';
import { notFound } from '../http/errors';
import { recordEvent } from '../events/recordEvent';
import { enqueueMail } from '../store/mailQueueStore';
import { lockUntilCommit } from '../store/transactionLocks';
import { getUserById } from '../store/userStore';
import { listSubscriptionsForUser } from '../store/subscriptionStore';
import { listBusinessPartnersForUser } from '../store/accountStore';
import { listPendingOrdersForUser, listPurchaseOrdersForUser } from '../store/orderStore';
import { partnersOfSubscription } from '../store/accountChangeStore';
import {
  exportAccount,
  exportAccountActivity,
  exportAccountEvents,
  exportContactMessages,
  exportECards,
  exportFutureAddresses,
  exportInvoiceRequests,
  exportLicenses,
  exportLoyalty,
  exportOnlinePayments,
  exportOptIns,
  exportPaymentHistory,
  exportPendingChanges,
  exportRequestsSince,
  exportSubscriptionChanges,
  findLiveExport,
  insertDataExport,
  markExportDownloaded,
  ownPartnerNumbers,
  type ExportPaymentRow,
} from '../store/dataExportStore';
import { billedParty } from '../documents/documents';
import { issuedInvoicePdf } from '../documents/issuedInvoices';
import type { AccountCaller } from '../account/accountContext';
import type { ServerTenant } from '../tenancy/tenantContext';
import { textsIn } from '../texts/serverTexts';
import { dataExportRoute, DATA_EXPORT_LINK_PARAM } from '../../engine/domain/dataExport';
import { href } from '../../engine/domain/routeRefs';
import { optInName } from '../../engine/domain/optIns';
import { exportReadme, type ExportPage } from './exportReadme';

/** How long the mailed link works (short-lived, docs/subscribers.md): a day to get to the mailbox, not a week in it. */
export const EXPORT_LINK_HOURS = 24;
/** Requests per account in any 24 hours (rate limited: a request mails the account and builds a large file). */
export const EXPORTS_PER_DAY = 1;
const DAY_MS = 86_400_000;

export interface DataExportAnswer {
  status: 'preparing';
  message: string;
}

export function createDataExport(deps: { db: Database; mailFrom: string; now: () => Date }) {
  const { db } = deps;

  return {
    /**
     * The request: at most EXPORTS_PER_DAY per account in any 24 hours, counted by the rows of the
     * requests themselves (whatever became of them), under an advisory lock on the account so two
     * requests at the same moment cannot both pass the check. Row, event and mail in one transaction.
     */
    async request(caller: AccountCaller, portalUrl: string): Promise<DataExportAnswer> {
      const { tenant, locale } = caller;
      const now = deps.now();
      const user = await getUserById(db, tenant.id, caller.user.id);
      if (!user) throw notFound('There is no such account.');
      const token = newSecretToken();
      const expiresAt = new Date(now.getTime() + EXPORT_LINK_HOURS * 3_600_000);
      await db.transaction(async (tx) => {
        await lockUntilCommit(tx, `data-export:${tenant.id}:${user.id}`);
        const recent = await exportRequestsSince(tx, tenant.id, user.id, new Date(now.getTime() - DAY_MS));
        if (recent.count >= EXPORTS_PER_DAY && recent.oldest) {
          // Try again when the oldest request of the day leaves the 24 hours (the screen says it in its language).
          throw tooMany((recent.oldest.getTime() + DAY_MS - now.getTime()) / 1000);
        }
        const exportId = await insertDataExport(tx, tenant.id, {
          userId: user.id,
          tokenHash: hashToken(token),
          locale,
          createdAt: now,
          expiresAt,
        });
        await recordEvent(tx, tenant.id, 'data_export.requested', {
          userId: user.id,
          exportId,
          expiresAt: expiresAt.toISOString(),
        });
        const t = textsIn(locale, 'data-export');
        // The screen that offers the export, the same one the screens show it on.
        const link = `${portalUrl}${href(
          dataExportRoute(tenant),
          {},
          {
            [DATA_EXPORT_LINK_PARAM]: token,
            lang: locale.slice(0, 2),
          },
        ).slice(1)}`;
        const values = { tenant: tenant.name, link, hours: EXPORT_LINK_HOURS };
        await enqueueMail(tx, {
          tenantId: tenant.id,
          to: user.email,
          from: deps.mailFrom,
          subject: t('mail.subject', values),
          text: t('mail.body', values),
        });
      });
      return {
        status: 'preparing',
        message: textsIn(locale, 'data-export')('reply', { email: user.email }),
      };
    },

    /**
     * The link's token, with the session of the account that asked, on the same tenant; anything
     * else is one and the same 404 (a prober learns nothing about which part was wrong).
     */
    async open(caller: AccountCaller, token: string): Promise<{ fileName: string; stream: Readable }> {
      const { tenant } = caller;
      const now = deps.now();
      const found = await findLiveExport(db, tenant.id, caller.user.id, hashToken(token), now);
      if (!found) throw notFound('This download link has expired or is not yours.');
      await markExportDownloaded(db, tenant.id, found.id, now);
      const locale = (found.locale as Locale) ?? caller.locale;
      const fileName = `${tenant.id}-data-${now.toISOString().slice(0, 10)}.zip`;
      return { fileName, stream: zipOfAccount(db, tenant, caller.user.id, locale, now) };
    },
  };
}
export type DataExport = ReturnType<typeof createDataExport>;

/** A subscription without what belongs to other people: parties that are not the account's own, and payment details it does not pay. */
export function ownView(subscription: Subscription, own: ReadonlySet<string>): Partial<Subscription> {
  const {
    orderingParty,
    goodsRecipient,
    businessPartners,
    paymentDetails,
    paymentMethod,
    subOProcessedPMD,
    ...rest
  } = subscription;
  const pays = subscription.roles.includes('AG') || subscription.roles.includes('RE');
  return {
    ...rest,
    businessPartners: businessPartners.filter((partner) => own.has(partner.bpNumber)),
    ...(orderingParty && own.has(orderingParty.bpNumber) ? { orderingParty } : {}),
    ...(goodsRecipient && own.has(goodsRecipient.bpNumber) ? { goodsRecipient } : {}),
    ...(pays ? { paymentDetails, paymentMethod, subOProcessedPMD } : {}),
  };
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');

/** A file name that cannot leave its folder or break a ZIP tool: letters, digits, dot, dash, underscore. */
const safeName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\.+/, '_')
    .slice(0, 100);

/**
 * The ZIP, written as it is read (exported for the personal-data catalogue's test, which holds the
 * manifests' `export` against it): JSON files one after the other, then each invoice's PDF. An error
 * half-way ends the stream with the error (the browser's download fails rather than saving a
 * truncated file that looks complete).
 */
export function zipOfAccount(
  db: Database,
  tenant: ServerTenant,
  userId: string,
  locale: Locale,
  now: Date,
): Readable {
  const zip = new yazl.ZipFile();
  const out = new PassThrough();
  zip.outputStream.on('error', (error) => out.destroy(error));
  zip.outputStream.pipe(out);
  const mtime = now;
  const add = (name: string, body: Buffer) => zip.addBuffer(body, name, { mtime });
  void (async () => {
    const own = new Set(await ownPartnerNumbers(db, tenant.id, userId));
    const subscriptions = await listSubscriptionsForUser(db, tenant.id, userId, { locale, today: now });
    const partners = (
      await listBusinessPartnersForUser(db, tenant.id, userId, { locale, allDetails: true })
    ).filter((partner) => partner.own);
    const payments = await exportPaymentHistory(db, tenant.id, userId);
    const invoices = payments.filter((payment) => payment.documentId);
    const page = dataExportRoute(tenant).id as ExportPage;

    add('README.txt', Buffer.from(exportReadme(tenant, locale, { date: now, page }), 'utf8'));
    add('account.json', json(await exportAccount(db, tenant.id, userId)));
    add(
      'business-partners.json',
      json({ partners, futureAddresses: await exportFutureAddresses(db, tenant.id, userId) }),
    );
    add(
      'subscriptions.json',
      json({
        subscriptions: subscriptions.map((subscription) => ownView(subscription, own)),
        changes: await exportSubscriptionChanges(db, tenant.id, userId),
      }),
    );
    add(
      'orders.json',
      json({
        purchaseOrders: await listPurchaseOrdersForUser(db, tenant.id, userId, undefined, { locale }),
        pendingOrders: await listPendingOrdersForUser(db, tenant.id, userId, undefined, { locale }),
      }),
    );
    add(
      'payments.json',
      json({
        paymentHistory: payments.map((payment) => ({
          ...payment,
          invoiceFile: payment.documentId
            ? `invoices/${safeName(invoiceFileName(payment.documentId))}`
            : null,
        })),
        onlinePayments: await exportOnlinePayments(db, tenant.id, userId),
        invoiceRequests: await exportInvoiceRequests(db, tenant.id, userId),
      }),
    );
    // Each opt-in named as its screen and its confirmation mail name it: the tenant's label of the
    // type first (tenant file `optIns.types`), else the order system's description, in this language.
    add(
      'opt-ins.json',
      json(
        (await exportOptIns(db, tenant.id, userId)).map(({ description, ...optIn }) => ({
          ...optIn,
          description: optInName(tenant.optIns?.types, { type: optIn.type, description }, locale),
        })),
      ),
    );
    add('licences.json', json(await exportLicenses(db, tenant.id, userId)));
    add(
      'e-cards.json',
      json(
        (await exportECards(db, tenant.id, userId)).map(({ toEmail, ...card }) => ({
          ...card,
          toEmail: maskEmail(toEmail),
        })),
      ),
    );
    add('loyalty.json', json(await exportLoyalty(db, tenant.id, userId, locale)));
    const messages = await exportContactMessages(db, tenant.id, userId);
    add(
      'contact-messages.json',
      json(
        messages.map(({ imageData, ...message }) => ({
          ...message,
          attachmentFile:
            imageData && message.imageFilename
              ? `contact-messages/${message.id}-${safeName(message.imageFilename)}`
              : null,
        })),
      ),
    );
    for (const message of messages) {
      if (message.imageData && message.imageFilename)
        add(`contact-messages/${message.id}-${safeName(message.imageFilename)}`, message.imageData);
    }
    add('account-events.json', json(await exportAccountEvents(db, tenant.id, userId)));
    add('account-activity.json', json(await exportAccountActivity(db, tenant.id, userId)));
    add('pending-changes.json', json(await exportPendingChanges(db, tenant.id, userId)));
    // The invoices last, one PDF at a time: the biggest part, rendered as the stream is read.
    const bySubscription = new Map(subscriptions.map((subscription) => [subscription.id, subscription]));
    for (const payment of invoices) {
      const subscription = bySubscription.get(payment.subscriptionId);
      if (!subscription) continue;
      add(
        `invoices/${safeName(invoiceFileName(payment.documentId!))}`,
        await invoiceOf(db, tenant, locale, subscription, payment, userId),
      );
    }
    zip.end();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

/**
 * The invoice PDF the subscription page's download serves for the same account and language: the
 * same inputs, so the same kept document (server/documents/issuedInvoices.ts), made once.
 */
async function invoiceOf(
  db: Database,
  tenant: ServerTenant,
  locale: Locale,
  subscription: Subscription,
  payment: ExportPaymentRow,
  userId: string,
): Promise<Buffer> {
  const billedTo = billedParty(
    await partnersOfSubscription(db, tenant.id, subscription.id, userId),
    subscription.orderingParty,
  );
  const input = {
    tenant,
    locale,
    subscription,
    payment: {
      id: payment.id,
      date: payment.date,
      amount: Number(payment.amount),
      currency: payment.currency,
      // As the download's PDF states it (orderStore.ts toPayment), so both are one issued document.
      invoiceStatusCode: invoiceStatusOf(
        payment.invoiceStatusCode,
        Number(payment.amount),
        payment.paidAmount == null ? null : Number(payment.paidAmount),
      ),
      invoiceNumber: payment.invoiceNumber,
      externalDocumentNumber: payment.externalDocumentNumber,
      documentId: payment.documentId,
      paidAmount: payment.paidAmount == null ? null : Number(payment.paidAmount),
      lines: payment.lines,
    },
    billedTo,
  };
  return issuedInvoicePdf(db, { tenantId: tenant.id, subscriptionId: subscription.id, input });
}
