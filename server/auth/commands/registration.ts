/** Creating a password account (portal-core.md §5; docs/architecture.md "Sign-in safety"). */
import { normalizeEmail } from '../../../engine/domain/fieldRules';
import type { ServerTenant } from '../../tenancy/tenantContext';
import { HttpError, badRequest } from '../../http/errors';
import type { RequestOrigin } from '../../http/requestOrigin';
import { recordEvent } from '../../events/recordEvent';
import { consumeLoginToken, peekLoginToken, spentLoginTokenEmail } from '../../store/authStore';
import { createUser, findUserByEmail, setPasswordHash } from '../../store/userStore';
import type { LoginResult } from '../../../schemas/generated/login-result';
import { hashPassword, verifyPassword } from '../passwords';
import { hashToken } from '../tokens';
import { checkNewPassword, invalidLink, requirePasswordLogin, type AuthKit } from '../authKit';
import { countingFailures } from '../rateLimit';
import { mailLimitOf } from './signInLinks';

export interface Registration {
  email: string;
  password: string;
  passwordConfirm: string;
  displayName: string;
  firstName?: string;
  lastName?: string;
}

/**
 * Nothing is stored as a user until the address is confirmed through the e-mailed link; an address
 * that has an account gets a hint instead (decided by the mail sender, server/auth/signInMailJobs.ts).
 * Same answer and same work either way. What is mailed depends on a fact the request does not know
 * (has the address an account), so the request counts as a fact-checked one: against the client and
 * the address *and* client, not the mailbox's budget that the owner's own login links draw on; the
 * sender caps the mailbox in a budget of its own (rateLimit.ts mayMailUnproven). Else anyone
 * registering an owner's address five times would refuse the owner's login link, with only hints
 * in the mailbox to sign in by.
 */
export async function register(
  kit: AuthKit,
  tenant: ServerTenant,
  input: Registration,
  origin: RequestOrigin,
): Promise<void> {
  requirePasswordLogin(tenant);
  checkNewPassword(input.password, input.passwordConfirm);
  const email = normalizeEmail(input.email);
  const countedIn = await kit.limitFactChecked(tenant, 'register', { address: email, client: origin.client });
  const passwordHash = await hashPassword(input.password);
  await kit.queueSignInMail(tenant, 'register', email, origin, {
    countedIn,
    mailLimit: mailLimitOf(kit),
    displayName: input.displayName.trim(),
    firstName: input.firstName?.trim() || undefined,
    lastName: input.lastName?.trim() || undefined,
    passwordHash,
  });
}

/** What a registration's token carries besides the address (register above). */
interface PendingRegistration {
  displayName: string;
  firstName?: string;
  lastName?: string;
  passwordHash: string;
}

/**
 * The confirmation link creates the account and signs in (login source "email"), once the password
 * chosen at registration is given again. The link proves the address; the password proves that
 * the person at the address is the one who registered: anyone can register someone else's address
 * with a password of their own, and a confirmation by the link alone would hand them an account the
 * owner made without choosing its password.
 *
 * The password is checked before the transaction (a hash takes a tenth of a second and 32 MiB, and
 * holds no row lock or connection meanwhile). A wrong one leaves the link unspent and counts twice:
 * against the client's budget of tokens, and against a budget of the link itself with the
 * per-address limit, so a leaked link is no cheaper a way to guess the password than the login.
 */
export async function confirmRegistration(
  kit: AuthKit,
  tenant: ServerTenant,
  { token, password }: { token: string; password: string },
  client: string,
): Promise<LoginResult> {
  requirePasswordLogin(tenant);
  const tokenHash = hashToken(token);
  return kit.spendingToken(tenant, client, async () => {
    const waiting = await peekLoginToken(kit.db, tenant.id, tokenHash, 'register', kit.now());
    if (waiting) {
      const { passwordHash } = waiting.payload as PendingRegistration;
      const linkBudget = {
        bucket: `register-confirm:token:${tokenHash}`,
        windowSeconds: kit.limits.windowSeconds,
        limit: kit.limits.perAddress,
      };
      await countingFailures(kit.db, tenant.id, [linkBudget], kit.now(), async () => {
        if (!(await verifyPassword(password, passwordHash)))
          throw badRequest(
            'wrong_registration_password',
            'This is not the password chosen at registration. The link stays valid.',
            [{ field: '/password', message: 'is not the password chosen at registration' }],
          );
      });
    }
    return kit.db.transaction(async (tx) => {
      const spent = await consumeLoginToken(tx, tenant.id, tokenHash, 'register', kit.now());
      if (!spent) {
        // The link opened again after it made the account: say so, rather than that it is invalid.
        const before = await spentLoginTokenEmail(tx, tenant.id, tokenHash, 'register');
        if (before && (await findUserByEmail(tx, tenant.id, before)))
          throw new HttpError(409, 'already_confirmed', 'This account is confirmed already. Please log in.');
        throw invalidLink();
      }
      // Never an account whose password was not checked (a token the first read did not find).
      if (!waiting) throw invalidLink();
      if (await findUserByEmail(tx, tenant.id, spent.email))
        throw new HttpError(
          409,
          'account_exists',
          'An account with this e-mail address exists already. Please log in.',
        );
      const data = spent.payload as PendingRegistration;
      const user = await createUser(tx, tenant.id, {
        email: spent.email,
        displayName: data.displayName,
        firstName: data.firstName,
        lastName: data.lastName,
      });
      await setPasswordHash(tx, tenant.id, user.id, data.passwordHash);
      await recordEvent(tx, tenant.id, 'account.created', {
        userId: user.id,
        email: user.email,
        source: 'registration',
        bpNumbers: [],
      });
      return kit.openSession(tx, tenant, user, 'email');
    });
  });
}
