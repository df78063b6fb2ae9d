/**
 * POST /subscriptions: link a subscription to the signed-in account (portal-core.md §2 "Link
 * subscription", §4 result statuses, §5 field rules, §8). Failures answer 400 with the link result
 * in `details` (status, and what its message needs); success answers the subscription.
 *
 * How this server decides (the spec names the statuses, not the rules behind them):
 *  - validation_failed: a §5 field rule fails (shared with the form), or the order number is not
 *    the order system's 10 digits although the input mask accepts 8 to 10.
 *  - not_found: no subscription with that order number (in that publication), or no such partner.
 *  - not_supported: the subscription has ended (status I) or is managed outside the portal (WBZA).
 *  - verification_failed: zip code and/or last name do not match the partner; `method` says which.
 *  - already_linked: the partner is linked to another account (its masked e-mail is shown).
 *  - already_linked_bp (by bp number): the partner is already linked to this account.
 *  - both_found_bp (by bp number): the partner's e-mail already belongs to another account of this
 *    portal, so the two would have to be merged by customer service (contact button).
 *  - email_required: the partner has no e-mail on record and the request brings none.
 *  - confirm_email: the partner's e-mail differs from the account's; the answer shows it masked with a
 *    single-use confirmToken, and resubmitting with that token confirms (the address is never sent).
 * The partner linked is the ordering party (AG) or, for a gift (preferredRole WE), the goods recipient.
 */
import type { Database } from '../db/database';
import type { LinkSubscriptionResult } from '../../schemas/generated/link-subscription-result';
import type { LinkSubscriptionRequest } from '../../schemas/generated/link-subscription-request';
import { linkFieldErrors, type LinkSettings } from '../../engine/domain/linkSubscription';
import { maskEmail, normalizeEmail } from '../../engine/domain/fieldRules';
import { HttpError } from '../http/errors';
import { consumeLoginToken, insertLoginToken } from '../store/authStore';
import { hashToken, newSecretToken } from '../auth/tokens';
import { recordEvent } from '../events/recordEvent';

const CONFIRM_LINK_PURPOSE = 'confirm-link';
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

/** Links and returns the subscription id that was linked (or, by bp number, the partner's first). */
export async function linkSubscription(
  db: Database,
  ctx: { tenantId: string; settings: LinkSettings; user: { id: string; email: string } },
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
    if (candidate.orderStatus === 'I' || candidate.salesDocumentType === 'WBZA') {
      throw new LinkRefused(
        { status: 'not_supported', orderNumber: body.orderNumber },
        'This subscription cannot be linked online.',
      );
    }
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

  // E-mail of the partner (§4 email_required / confirm_email).
  const given = body.email ? normalizeEmail(body.email) : null;
  let storeEmail: string | null = null;
  if (!partner.email) {
    if (!given)
      throw new LinkRefused(
        { status: 'email_required', orderNumber: body.orderNumber, bpNumber: partner.bpNumber },
        'An e-mail address is needed.',
      );
    // The address put on record is the account's own (proved by its sign-in), never a typed one:
    // an address on record receives the partner's sign-in links, so nobody may name
    // someone else's (or an unproved) address for it.
    storeEmail = ctx.user.email;
  } else if (normalizeEmail(partner.email) !== ctx.user.email && given !== normalizeEmail(partner.email)) {
    const confirmed = body.confirmToken
      ? await consumeLoginToken(
          db,
          ctx.tenantId,
          hashToken(body.confirmToken),
          CONFIRM_LINK_PURPOSE,
          new Date(),
        )
      : undefined;
    const confirmedThis =
      confirmed &&
      (confirmed.payload as { bpNumber?: string; userId?: string }).bpNumber === partner.bpNumber &&
      (confirmed.payload as { userId?: string }).userId === ctx.user.id;
    if (!confirmedThis) {
      const confirmToken = newSecretToken();
      await insertLoginToken(db, ctx.tenantId, {
        tokenHash: hashToken(confirmToken),
        email: normalizeEmail(partner.email),
        purpose: CONFIRM_LINK_PURPOSE,
        expiresAt: new Date(Date.now() + 10 * 60_000),
        payload: { bpNumber: partner.bpNumber, userId: ctx.user.id },
      });
      throw new LinkRefused(
        {
          status: 'confirm_email',
          maskedEmail: maskEmail(partner.email),
          confirmToken,
          orderNumber: body.orderNumber,
          bpNumber: partner.bpNumber,
        },
        'Please confirm the e-mail address on record.',
      );
    }
  }

  const linkedBp = partner.bpNumber;
  await db.transaction(async (tx) => {
    await linkPartnerToUser(tx, ctx.tenantId, ctx.user.id, linkedBp, storeEmail);
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
        emailStored: storeEmail,
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
