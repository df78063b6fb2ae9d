/**
 * POST /login/token (portal-core.md §4, §7): spending a single-use link token opens a session.
 */
import type { Queryable } from '../../db/database';
import type { ServerTenant } from '../../tenancy/tenantContext';
import { samePortalPathOrUndefined } from '../../../engine/domain/returnTo';
import { recordEvent } from '../../events/recordEvent';
import { consumeLoginToken } from '../../store/authStore';
import { partnersOnRecordFor, partnersWithAddressOnRecord } from '../../store/partialLoginStore';
import {
  createUser,
  findUserByEmail,
  linkBusinessPartner,
  otherAccountsOfPartner,
} from '../../store/userStore';
import { enqueueMail } from '../../store/mailQueueStore';
import { partnerAlsoLinkedMail } from '../../mail/authMails';
import { maskEmail } from '../../../engine/domain/fieldRules';
import type { UserRecord } from '../../store/rows';
import type { LoginResult } from '../../../schemas/generated/login-result';
import { hashToken } from '../tokens';
import { EMAIL_ZIP_PURPOSE, LINK_LOGIN_PURPOSES, PARTNER_SIGN_IN_PURPOSE } from '../signInMailJobs';
import { invalidLink, type AuthKit } from '../authKit';
import type { PartnerSignInPayload } from './signInLinks';

/**
 * Opens a partner sign-in link: the address must (still) be on record for the partners, the account
 * of that address is found or created and made to speak for them. The account is created here, from
 * the mailbox, never by the partial login that asked for the link. An account that spoke for a
 * partner before is told that another address now does too: the publisher's address outranks it
 * (docs/architecture.md "Sign-in safety"), and whoever changed that address in the order system
 * would otherwise take the customer's subscriptions over unnoticed.
 */
async function partnerSignIn(
  tx: Queryable,
  tenant: ServerTenant,
  link: { email: string; bpNumbers: string[]; subscriptionId: string | null },
  mailFrom: string,
): Promise<UserRecord> {
  const { email, bpNumbers, subscriptionId } = link;
  const onRecord = await partnersOnRecordFor(tx, tenant.id, email, bpNumbers);
  if (onRecord.length === 0) throw invalidLink();
  const existing = await findUserByEmail(tx, tenant.id, email);
  const user = existing ?? (await createUser(tx, tenant.id, { email }));
  // Account events, in the transaction that spends the link: the new account, and each
  // partner newly linked to an account (an existing link records nothing).
  if (!existing)
    await recordEvent(tx, tenant.id, 'account.created', {
      userId: user.id,
      email: user.email,
      source: 'sign-in-link',
      bpNumbers: onRecord,
    });
  for (const bpNumber of onRecord) {
    if (await linkBusinessPartner(tx, tenant.id, user.id, bpNumber)) {
      await recordEvent(tx, tenant.id, 'subscription.linked', {
        userId: user.id,
        bpNumber,
        subscriptionId,
        method: 'sign-in-link',
        emailStored: null,
      });
      for (const other of await otherAccountsOfPartner(tx, tenant.id, bpNumber, user.id))
        await enqueueMail(tx, {
          tenantId: tenant.id,
          to: other,
          from: mailFrom,
          ...partnerAlsoLinkedMail(tenant.defaultLocale, {
            tenant: tenant.name,
            masked: maskEmail(email),
            bpNumber,
            contact: customerService(tenant),
          }),
        });
    }
  }
  return user;
}

/** Where the notice sends a subscriber who does not know the other address. */
function customerService(tenant: ServerTenant): string {
  const { contact } = tenant;
  return [contact?.email ?? contact?.fallbackEmail, contact?.phone ?? contact?.fallbackPhone]
    .filter(Boolean)
    .join(', ');
}

/**
 * Login source "token" (login link), "email-zip" (the e-mail + zip link) or the partial login's own
 * (partner link, scoped to its subscription, and leading on to its same-portal `returnTo`).
 */
export function loginWithToken(
  kit: AuthKit,
  tenant: ServerTenant,
  token: string,
  client = 'unknown',
): Promise<LoginResult> {
  return kit.spendingToken(tenant, client, () =>
    kit.db.transaction(async (tx) => {
      const spent = await consumeLoginToken(tx, tenant.id, hashToken(token), LINK_LOGIN_PURPOSES, kit.now());
      if (!spent) throw invalidLink();
      if (spent.purpose === PARTNER_SIGN_IN_PURPOSE) {
        const data = spent.payload as PartnerSignInPayload;
        const user = await partnerSignIn(
          tx,
          tenant,
          { email: spent.email, bpNumbers: data.bpNumbers, subscriptionId: data.subscriptionId },
          kit.mailFrom,
        );
        const login = await kit.openSession(
          tx,
          tenant,
          user,
          data.loginSource,
          data.subscriptionId ?? undefined,
        );
        const returnTo = samePortalPathOrUndefined(data.returnTo);
        return returnTo ? { ...login, returnTo } : login;
      }
      const user = await findUserByEmail(tx, tenant.id, spent.email);
      if (!user) throw invalidLink();
      // A link opened from the mailbox is the proof a partner sign-in link is: partners the order
      // system has brought in with this address on record since the account was made join it now,
      // as they would have joined it had the account been made by that link.
      const newlyOnRecord = await partnersWithAddressOnRecord(tx, tenant.id, user.email, { userId: user.id });
      if (newlyOnRecord.length > 0)
        await partnerSignIn(
          tx,
          tenant,
          { email: user.email, bpNumbers: newlyOnRecord, subscriptionId: null },
          kit.mailFrom,
        );
      return kit.openSession(tx, tenant, user, spent.purpose === EMAIL_ZIP_PURPOSE ? 'email-zip' : 'token');
    }),
  );
}
