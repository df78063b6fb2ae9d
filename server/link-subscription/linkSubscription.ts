/**
 * POST /subscriptions: link a subscription to the signed-in account (portal-core.md §2 "Link
 * subscription", §4 result statuses, §5 field rules, §8). Failures answer 400 with the link result
 * in `details` (status, and what its message needs); success answers the subscription.
 *
 * How this server decides (the spec names the statuses, not the rules behind them):
 *  - validation_failed: a §5 field rule fails (shared with the form), or the order number is not
 *    the order system's 10 digits although the input mask accepts 8 to 10.
 *  - not_found: no subscription with that order number (in that publication), or no such partner.
 *  - not_supported: the subscription has ended (status I) or is managed outside the portal (WBZA);
 *    said after the zip code and name matched, so it tells a stranger nothing.
 *  - verification_failed: zip code and/or last name do not match the partner; `method` says which.
 *  - already_linked: the partner is linked to another account (its masked e-mail is shown).
 *  - already_linked_bp (by bp number): the partner is already linked to this account.
 *  - both_found_bp (by bp number): the partner's e-mail already belongs to another account of this
 *    portal, so the two would have to be merged by customer service (contact button).
 *  - no_email_on_record: the partner has no e-mail address on record, so nothing can prove that the
 *    account speaks for it; customer service links it (the contact form).
 *  - confirm_email: the partner's e-mail address on record is not the account's; a link went to that
 *    address (masked in the answer), and opening it links the partner (confirmLink below).
 * The partner linked is the ordering party (AG) or, for a gift (preferredRole WE), the goods recipient.
 *
 * Where this reads the spec differently (docs/decisions.md "Where the portal reads the spec
 * differently"): §4 has confirm_email resubmit "with the e-mail returned by the server" and
 * email_required reveal a field for an address. Knowing an order number and a zip code proves
 * nothing about a mailbox: only a link opened from the address on record links a partner to an
 * account that does not already have that address (docs/architecture.md "Sign-in safety").
 */
import type { Database, Queryable } from '../db/database';
import type { LinkSubscriptionResult } from '../../schemas/generated/link-subscription-result';
import type { LinkSubscriptionRequest } from '../../schemas/generated/link-subscription-request';
import { linkFieldErrors, type LinkSettings } from '../../engine/domain/linkSubscription';
import { maskEmail, maskEmailName, normalizeEmail } from '../../engine/domain/fieldRules';
import { HttpError } from '../http/errors';
import { consumeLoginToken, insertLoginToken, peekLoginToken } from '../store/authStore';
import { enqueueMail } from '../store/mailQueueStore';
import { hashToken, newSecretToken } from '../auth/tokens';
import { langQuery, MAGIC_LINK_MINUTES } from '../auth/signInMailJobs';
import { recordEvent } from '../events/recordEvent';
import { textsIn } from '../texts/serverTexts';
import type { RequestOrigin } from '../http/requestOrigin';
import {
  findAccountByEmail,
  findPartnerForLink,
  findSubscriptionsByOrderNumber,
  linkPartnerToUser,
  type PartnerForLink,
} from '../store/accountStore';

/** schemas/api/link-subscription-request.schema.json */
export type LinkRequest = LinkSubscriptionRequest;

export class LinkRefused extends HttpError {
  constructor(
    readonly result: LinkSubscriptionResult,
    message: string,
  ) {
    super(400, result.status, message, result);
  }
}

const sameText = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').trim().toLocaleLowerCase('de') === (b ?? '').trim().toLocaleLowerCase('de');
const sameZip = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').replace(/\s+/g, '').toUpperCase() === (b ?? '').replace(/\s+/g, '').toUpperCase();

/**
 * The single-use token of a link confirmation, mailed to the partner's address on record. A name of
 * its own: tokens of the former `confirm-link` purpose went to the requester and prove nothing.
 */
const CONFIRM_LINK_PURPOSE = 'confirm-link-mail';
/** Confirmation mails one address on record gets in 24 hours at most, whoever asks. */
const CONFIRM_MAILS_PER_DAY = 5;

interface ConfirmLinkPayload {
  bpNumber: string;
  userId: string;
  subscriptionId: string | null;
  orderNumber: string | null;
}

/** What a link confirmation's e-mail needs besides the partner: the tenant, and where the visitor is. */
export interface LinkMailContext {
  tenantName: string;
  /** The language of the mail when the visitor's is not known. */
  defaultLocale: string;
  mailFrom: string;
  /** Where the visitor is (the link's address and language): asked only when a mail goes out. */
  origin: () => RequestOrigin;
  now: Date;
}

/** Links and returns the subscription id that was linked (or, by bp number, the partner's first). */
export async function linkSubscription(
  db: Database,
  ctx: {
    tenantId: string;
    settings: LinkSettings;
    user: { id: string; email: string };
    mail: LinkMailContext;
  },
  body: LinkRequest,
): Promise<{ bpNumber: string; subscriptionId: string | null }> {
  const byBpNumber = Boolean(body.bpNumber) && Boolean(ctx.settings.linkSubscription?.allowBpNumber);
  const fields = linkFieldErrors(ctx.settings, { ...body, byBpNumber }, { strictOrderNumber: true });
  if (Object.keys(fields).length > 0) {
    throw new LinkRefused({ status: 'validation_failed', fields }, 'Some fields are missing or not valid.');
  }

  let partner: PartnerForLink | null;
  let subscriptionId: string | null = null;
  if (byBpNumber) {
    partner = await findPartnerForLink(db, ctx.tenantId, body.bpNumber!);
    if (!partner)
      throw new LinkRefused(
        { status: 'not_found', bpNumber: body.bpNumber },
        'There is no customer with this number.',
      );
    const zipOk = sameZip(partner.zipcode, body.zipcode);
    const nameOk = !body.lastName || sameText(partner.lastName ?? partner.company, body.lastName);
    if (!zipOk || !nameOk) {
      throw new LinkRefused(
        { status: 'verification_failed', method: 'bp_number_zip', bpNumber: partner.bpNumber },
        'The details do not match.',
      );
    }
    if (partner.linkedAccounts.some((a) => a.userId === ctx.user.id)) {
      throw new LinkRefused(
        { status: 'already_linked_bp', bpNumber: partner.bpNumber },
        'This customer number is already linked to your account.',
      );
    }
    const other = partner.linkedAccounts.find((a) => a.userId !== ctx.user.id);
    if (other) {
      throw new LinkRefused(
        { status: 'already_linked', bpNumber: partner.bpNumber, maskedEmail: maskEmail(other.email) },
        'Linked to another account.',
      );
    }
    if (partner.email && normalizeEmail(partner.email) !== ctx.user.email) {
      const account = await findAccountByEmail(db, ctx.tenantId, partner.email);
      if (account && account.id !== ctx.user.id) {
        throw new LinkRefused(
          { status: 'both_found_bp', bpNumber: partner.bpNumber, maskedEmail: maskEmail(partner.email) },
          'The customer already has an account of its own; customer service can merge them.',
        );
      }
    }
  } else {
    const candidates = await findSubscriptionsByOrderNumber(
      db,
      ctx.tenantId,
      body.orderNumber!,
      body.publication?.trim() || null,
    );
    if (candidates.length === 0)
      throw new LinkRefused(
        { status: 'not_found', orderNumber: body.orderNumber },
        'There is no subscription with this order number.',
      );
    const candidate = candidates[0];
    const role = body.preferredRole ?? ctx.settings.linkSubscription?.preferredRole ?? 'AG';
    const holder =
      candidate.roles.find((r) => r.role === role) ?? candidate.roles.find((r) => r.role === 'AG');
    partner = holder ? await findPartnerForLink(db, ctx.tenantId, holder.bpNumber) : null;
    if (!partner)
      throw new LinkRefused(
        { status: 'not_found', orderNumber: body.orderNumber },
        'There is no subscription with this order number.',
      );
    const zipOk = sameZip(partner.zipcode, body.zipcode);
    const nameOk = !body.lastName || sameText(partner.lastName ?? partner.company, body.lastName);
    if (!zipOk || !nameOk) {
      const method = body.lastName
        ? !zipOk && !nameOk
          ? 'order_number_name_zip'
          : !nameOk
            ? 'name'
            : 'zip'
        : 'zip';
      throw new LinkRefused(
        { status: 'verification_failed', method, orderNumber: body.orderNumber },
        'The details do not match.',
      );
    }
    // Said only to someone who knows the holder's zip code (and name): an order number alone tells
    // whether it exists (not_found), never whether it has ended or is managed elsewhere.
    if (candidate.orderStatus === 'I' || candidate.salesDocumentType === 'WBZA') {
      throw new LinkRefused(
        { status: 'not_supported', orderNumber: body.orderNumber },
        'This subscription cannot be linked online.',
      );
    }
    const other = partner.linkedAccounts.find((a) => a.userId !== ctx.user.id);
    if (other) {
      throw new LinkRefused(
        { status: 'already_linked', orderNumber: body.orderNumber, maskedEmail: maskEmail(other.email) },
        'This subscription is linked to another account.',
      );
    }
    if (partner.linkedAccounts.some((a) => a.userId === ctx.user.id)) {
      throw new LinkRefused(
        { status: 'already_linked_bp', bpNumber: partner.bpNumber, orderNumber: body.orderNumber },
        'Already on your account.',
      );
    }
    subscriptionId = candidate.subscriptionId;
  }

  // The proof of a mailbox (§4 confirm_email, read as docs/architecture.md "Sign-in safety" says).
  if (!partner.email)
    throw new LinkRefused(
      { status: 'no_email_on_record', orderNumber: body.orderNumber, bpNumber: partner.bpNumber },
      'There is no e-mail address on record for this customer: customer service can link it.',
    );
  if (normalizeEmail(partner.email) !== ctx.user.email) {
    await mailLinkConfirmation(db, ctx, {
      email: normalizeEmail(partner.email),
      payload: {
        bpNumber: partner.bpNumber,
        userId: ctx.user.id,
        subscriptionId,
        orderNumber: byBpNumber ? null : (body.orderNumber ?? null),
      },
    });
    throw new LinkRefused(
      {
        status: 'confirm_email',
        maskedEmail: maskEmail(partner.email),
        orderNumber: body.orderNumber,
        bpNumber: partner.bpNumber,
      },
      'A link went to the e-mail address on record: opening it links the subscription.',
    );
  }

  const linkedBp = partner.bpNumber;
  await db.transaction(async (tx) => {
    // Another account may have been linked since the checks above (a confirmation opened meanwhile).
    const other = (await lockPartnerLinks(tx, ctx.tenantId, linkedBp)).find((a) => a.userId !== ctx.user.id);
    if (other)
      throw new LinkRefused(
        byBpNumber
          ? { status: 'already_linked', bpNumber: linkedBp, maskedEmail: maskEmail(other.email) }
          : { status: 'already_linked', orderNumber: body.orderNumber, maskedEmail: maskEmail(other.email) },
        'This subscription is linked to another account.',
      );
    await linkPartnerToUser(tx, ctx.tenantId, ctx.user.id, linkedBp);
    // An account event: the publisher's systems learn of the link with it; the account's activity
    // record lists it too.
    await recordEvent(
      tx,
      ctx.tenantId,
      'subscription.linked',
      {
        userId: ctx.user.id,
        bpNumber: linkedBp,
        subscriptionId,
        method: byBpNumber ? 'bp-number' : 'order-number',
        emailStored: null,
      },
      {
        activity: {
          userId: ctx.user.id,
          action: 'link_subscription',
          subjectId: subscriptionId ?? undefined,
          details: { bpNumber: linkedBp, byBpNumber, preferredRole: body.preferredRole ?? null },
        },
      },
    );
  });
  return { bpNumber: linkedBp, subscriptionId };
}

/**
 * Writes the confirmation's token and queues its e-mail to the address on record, in one
 * transaction, in the visitor's language: the link opens /link-subscription/confirm, where the
 * mailbox's owner confirms (a button, so that a mail scanner opening links spends nothing).
 */
async function mailLinkConfirmation(
  db: Database,
  ctx: { tenantId: string; user: { email: string }; mail: LinkMailContext },
  link: { email: string; payload: ConfirmLinkPayload },
): Promise<void> {
  const token = newSecretToken();
  const origin = ctx.mail.origin();
  const locale = origin.locale ?? ctx.mail.defaultLocale;
  const t = textsIn(locale, 'link-subscription');
  const values = {
    tenant: ctx.mail.tenantName,
    account: maskEmailName(ctx.user.email),
    what: link.payload.orderNumber
      ? t('confirmLink.bySubscription', { orderNumber: link.payload.orderNumber })
      : t('confirmLink.byCustomerNumber', { bpNumber: link.payload.bpNumber }),
    link: `${origin.portalUrl}link-subscription/confirm?t=${encodeURIComponent(token)}${langQuery(locale)}`,
    minutes: MAGIC_LINK_MINUTES,
  };
  await db.transaction(async (tx) => {
    // Not a mail per request: while the account's link for this partner is still valid, or once
    // the address has had its day's confirmations, the answer stays the same and nothing is sent
    // (the request still counts against the asker's budget). One lock per address keeps two
    // requests at once from both sending.
    await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `confirm-link:${ctx.tenantId}:${link.email}`,
    ]);
    const [sent] = await tx.query<{ today: number; live: number }>(
      `select (count(*) filter (where created_at > $4::timestamptz - interval '24 hours'))::int as today,
              (count(*) filter (where used_at is null and expires_at > $4
                                  and payload->>'bpNumber' = $5 and payload->>'userId' = $6))::int as live
         from login_tokens where tenant_id = $1 and email = $2 and purpose = $3`,
      [
        ctx.tenantId,
        link.email,
        CONFIRM_LINK_PURPOSE,
        ctx.mail.now.toISOString(),
        link.payload.bpNumber,
        link.payload.userId,
      ],
    );
    if (sent.live > 0 || sent.today >= CONFIRM_MAILS_PER_DAY) return;
    await insertLoginToken(tx, ctx.tenantId, {
      tokenHash: hashToken(token),
      email: link.email,
      purpose: CONFIRM_LINK_PURPOSE,
      expiresAt: new Date(ctx.mail.now.getTime() + MAGIC_LINK_MINUTES * 60_000),
      payload: link.payload,
    });
    await enqueueMail(tx, {
      tenantId: ctx.tenantId,
      to: link.email,
      from: ctx.mail.mailFrom,
      subject: t('confirmLink.subject', values),
      text: t('confirmLink.body', values),
    });
  });
}

/** What a confirmation linked, and to which account. */
export interface LinkConfirmation {
  orderNumber: string | null;
  bpNumber: string;
  maskedAccountEmail: string;
  /** The account the partner was linked to (not answered: the route tells whether it is the caller's). */
  userId: string;
}

/** POST /link-subscription/confirm's answer: what was linked, to which account (masked), and whether it is the caller's own. */
export type LinkConfirmAnswer = Omit<LinkConfirmation, 'userId'> & { yours: boolean };

/** POST /link-subscription/confirm/details's answer: what the link would link, to which account (masked). */
export type LinkConfirmDetails = Omit<LinkConfirmation, 'userId'>;

const invalidLink = () =>
  new HttpError(400, 'invalid_token', 'This link is not valid (any more): ask for a new one.');

/**
 * The checks of a confirmation token, spent or only read: the address it went to is still the
 * partner's on record, and the account that asked is still there (`for share` while it links).
 * 400 `invalid_token` otherwise.
 */
async function checkedLink(
  db: Queryable,
  tenantId: string,
  token: { email: string; payload: unknown } | undefined,
  lockAccount: boolean,
): Promise<{ payload: ConfirmLinkPayload; accountEmail: string }> {
  if (!token) throw invalidLink();
  const payload = token.payload as ConfirmLinkPayload;
  const partner = await findPartnerForLink(db, tenantId, payload.bpNumber);
  if (!partner?.email || normalizeEmail(partner.email) !== token.email) throw invalidLink();
  const [account] = await db.query<{ email: string }>(
    `select email from users where tenant_id = $1 and id = $2 and deleted_at is null${lockAccount ? ' for share' : ''}`,
    [tenantId, payload.userId],
  );
  if (!account) throw invalidLink();
  return { payload, accountEmail: account.email };
}

/**
 * What a link confirmation would link, without spending it: the confirm page names the
 * subscription and the account before its button, as the mail did. The confirmation's own checks,
 * so a link that could only fail says so at once.
 */
export async function linkConfirmDetails(
  db: Queryable,
  tenantId: string,
  token: string,
  now: Date,
): Promise<LinkConfirmDetails> {
  const live = await peekLoginToken(db, tenantId, hashToken(token), CONFIRM_LINK_PURPOSE, now);
  const { payload, accountEmail } = await checkedLink(db, tenantId, live, false);
  return {
    orderNumber: payload.orderNumber,
    bpNumber: payload.bpNumber,
    maskedAccountEmail: maskEmailName(accountEmail),
  };
}

/**
 * Spends a link confirmation (opened from the address on record): the partner is linked to the
 * account that asked, if the address is still the partner's on record, no other account speaks for
 * it meanwhile and the account is still there. 400 `invalid_token` for a spent, expired or unknown
 * link; 409 `already_linked` when another account took the partner meanwhile.
 */
export async function confirmLink(
  db: Database,
  tenantId: string,
  token: string,
  now: Date,
): Promise<LinkConfirmation> {
  return db.transaction(async (tx) => {
    const spent = await consumeLoginToken(tx, tenantId, hashToken(token), CONFIRM_LINK_PURPOSE, now);
    const { payload, accountEmail } = await checkedLink(tx, tenantId, spent, true);
    const linked = await lockPartnerLinks(tx, tenantId, payload.bpNumber);
    if (linked.some((a) => a.userId !== payload.userId))
      throw new HttpError(409, 'already_linked', 'Another account speaks for this customer already.');
    if (!linked.some((a) => a.userId === payload.userId)) {
      await linkPartnerToUser(tx, tenantId, payload.userId, payload.bpNumber);
      await recordEvent(
        tx,
        tenantId,
        'subscription.linked',
        {
          userId: payload.userId,
          bpNumber: payload.bpNumber,
          subscriptionId: payload.subscriptionId,
          method: 'confirm-link',
          emailStored: null,
        },
        {
          activity: {
            userId: payload.userId,
            action: 'link_subscription',
            subjectId: payload.subscriptionId ?? undefined,
            details: {
              bpNumber: payload.bpNumber,
              byBpNumber: payload.orderNumber === null,
              preferredRole: null,
            },
          },
        },
      );
    }
    return {
      orderNumber: payload.orderNumber,
      bpNumber: payload.bpNumber,
      maskedAccountEmail: maskEmailName(accountEmail),
      userId: payload.userId,
    };
  });
}

/**
 * Locks the partner's row for the link's transaction and answers the accounts that speak for it:
 * two links of one partner (a confirmation and a direct link, or two confirmations) run one after
 * the other, so the second sees the first.
 */
async function lockPartnerLinks(
  tx: Queryable,
  tenantId: string,
  bpNumber: string,
): Promise<Array<{ userId: string; email: string }>> {
  await tx.query('select 1 from business_partners where tenant_id = $1 and bp_number = $2 for update', [
    tenantId,
    bpNumber,
  ]);
  // The other account's address too: an answer of already_linked shows it masked, as the checks
  // before the transaction do.
  return tx.query<{ userId: string; email: string }>(
    `select ubp.user_id as "userId", u.email
       from user_business_partners ubp join users u on u.tenant_id = ubp.tenant_id and u.id = ubp.user_id
      where ubp.tenant_id = $1 and ubp.bp_number = $2`,
    [tenantId, bpNumber],
  );
}
