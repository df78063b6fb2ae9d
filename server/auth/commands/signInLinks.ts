/**
 * The sign-in links a visitor asks for (portal-core.md §7 login calls;
 * docs/architecture.md "Sign-in safety"): each is queued or mailed whatever the address, so no answer tells
 * whether an account exists.
 */
import { authMail } from '../../mail/authMails';
import { enqueueMail } from '../../store/mailQueueStore';
import { normalizeEmail } from '../../../engine/domain/fieldRules';
import { samePortalPathOrUndefined } from '../../../engine/domain/returnTo';
import type { ServerTenant } from '../../tenancy/tenantContext';
import { HttpError } from '../../http/errors';
import type { RequestOrigin } from '../../http/requestOrigin';
import { insertLoginToken } from '../../store/authStore';
import { hashToken, newSecretToken } from '../tokens';
import {
  langQuery,
  MAGIC_LINK_MINUTES,
  PARTNER_SIGN_IN_PURPOSE,
  type SignInMailLimit,
} from '../signInMailJobs';
import type { AuthKit } from '../authKit';

/**
 * A sign-in link sent by a partial login (order number + name, order number + zip) to the address
 * on record for the business partner: what was typed proves nothing, opening the link is the proof.
 */
export interface PartnerSignInPayload {
  bpNumbers: string[];
  /** The one subscription a partial login may act on; null: the account's session (bulk renewal). */
  subscriptionId: string | null;
  /** 'token': the magic link of a subscriber the order system brought in (a full session). */
  loginSource: 'order-number' | 'contact-form' | 'email-zip' | 'token';
  returnTo?: string;
}

/**
 * Queues a login link for the address; the sender mails it only when the address has an account of
 * this tenant. The answer is the same either way, and so is the work done for it. The link leads to
 * `returnTo` when that is a same-portal path (engine/domain/returnTo.ts, the rule the screen
 * navigates by); any other value is left out, not refused.
 */
export async function requestMagicLink(
  kit: AuthKit,
  tenant: ServerTenant,
  input: { email: string; returnTo?: string },
  origin: RequestOrigin,
): Promise<void> {
  if (!tenant.login.magicLink)
    throw new HttpError(404, 'not_found', 'This portal does not offer login links.');
  const email = normalizeEmail(input.email);
  const countedIn = await kit.limit(tenant, 'magic-link', { address: email, client: origin.client });
  const returnTo = samePortalPathOrUndefined(input.returnTo);
  await kit.queueSignInMail(
    tenant,
    'magic-link',
    email,
    origin,
    returnTo ? { returnTo, countedIn } : { countedIn },
  );
}

/**
 * POST /login/email-zip: queues a login link that the sender mails only when the account speaks for
 * a business partner with that zip code. portal-core.md §7 answers the login itself; here an address
 * and a zip code (both easy to learn) open nothing without the mailbox, and the answer cannot tell
 * whether the pair matched (docs/architecture.md "Sign-in safety").
 */
export async function requestEmailZipLink(
  kit: AuthKit,
  tenant: ServerTenant,
  input: { email: string; zipcode: string },
  origin: RequestOrigin,
): Promise<void> {
  const email = normalizeEmail(input.email);
  const countedIn = await kit.limitFactChecked(tenant, 'email-zip', {
    address: email,
    client: origin.client,
  });
  await kit.queueSignInMail(tenant, 'email-zip', email, origin, {
    zipcode: input.zipcode,
    countedIn,
    mailLimit: mailLimitOf(kit),
  });
}

/**
 * POST /login/bulk-renewal: queues a sign-in link that the sender mails only when the address is on
 * record for a business partner with that last name and zip code (signInMailJobs.ts); the link opens
 * the account's session on /bulk-renewal. Same answer and work whatever matched.
 */
export async function requestBulkRenewalLink(
  kit: AuthKit,
  tenant: ServerTenant,
  input: { email: string; lastName: string; zipcode: string },
  origin: RequestOrigin,
): Promise<void> {
  const email = normalizeEmail(input.email);
  const countedIn = await kit.limitFactChecked(tenant, 'bulk-renewal', {
    address: email,
    client: origin.client,
  });
  await kit.queueSignInMail(tenant, 'bulk-renewal', email, origin, {
    lastName: input.lastName,
    zipcode: input.zipcode,
    countedIn,
    mailLimit: mailLimitOf(kit),
  });
}

/** The mailbox's budget the sender checks before it makes a fact-checked request's link (mayMailSignInLink). */
export function mailLimitOf(kit: AuthKit): SignInMailLimit {
  return { windowSeconds: kit.limits.windowSeconds, perAddress: kit.limits.perAddress };
}

/**
 * Mails a sign-in link to an address on record for business partners (a partial login's
 * confirm_email), written with its token in one transaction. Opening it opens the session the
 * partial login asked for (login source order-number or contact-form, "logged in only" for that one
 * subscription, portal-core.md §4) now that the mailbox has proved who asks.
 */
export async function sendPartnerSignInLink(
  kit: AuthKit,
  tenant: ServerTenant,
  input: {
    email: string;
    bpNumbers: string[];
    subscriptionId: string;
    loginSource: 'order-number' | 'contact-form';
    returnTo?: string;
  },
  origin: RequestOrigin,
): Promise<void> {
  // The proof held; the mail counts against the address on record as every sign-in mail does, and
  // the link gives its places back when it is opened.
  const countedIn = await kit.limit(tenant, 'partner-link', { address: input.email, client: origin.client });
  const token = newSecretToken();
  const locale = origin.locale ?? tenant.defaultLocale;
  const mail = authMail('partnerSignIn', locale, {
    tenant: tenant.name,
    link: `${origin.portalUrl}login?p=${encodeURIComponent(token)}${langQuery(locale)}`,
    minutes: MAGIC_LINK_MINUTES,
  });
  const payload: PartnerSignInPayload = {
    bpNumbers: input.bpNumbers,
    subscriptionId: input.subscriptionId,
    loginSource: input.loginSource,
    returnTo: samePortalPathOrUndefined(input.returnTo),
  };
  await kit.db.transaction(async (tx) => {
    await insertLoginToken(tx, tenant.id, {
      tokenHash: hashToken(token),
      email: input.email,
      purpose: PARTNER_SIGN_IN_PURPOSE,
      expiresAt: kit.inMinutes(MAGIC_LINK_MINUTES),
      payload,
      countedIn,
    });
    await enqueueMail(tx, { tenantId: tenant.id, to: input.email, from: kit.mailFrom, ...mail });
  });
}
