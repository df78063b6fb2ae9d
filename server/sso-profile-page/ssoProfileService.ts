/**
 * The SSO profile page's service (account-flows.md §2 "SSO profile", §4 "SSO delete", §5 "SSO",
 * "Password", §7, §8, §9): every call checks the tenant's flag (and its `ssoProfilePage` switches)
 * with the same engine/domain functions the screen uses, runs in one transaction with its account
 * event, and answers the text the screen shows.
 *
 * - Password: the §5 rule; the current password is required when the account has one (scrypt,
 *   server/auth/passwords.ts), wrong guesses count against the sign-in password limits; other
 *   sessions end.
 * - E-mail: the new address counts only once the link mailed to it is opened by the same account;
 *   the old address is told when it changes, with a link that takes the account back for
 *   EMAIL_CHANGE_UNDO_DAYS (its address again, every session ended, the password gone). The answer never says whether another account uses
 *   the address (that address gets a mail saying so instead of a link).
 * - Delete: the typed address must match; personal data goes (server/store/accountDeletionStore.ts),
 *   every session ends.
 */
import type { Database } from '../db/database';
import type { SsoProfile, SsoMessageAnswer } from '../../schemas/generated/sso-profile';
import type { SsoPasswordRequest } from '../../schemas/generated/sso-password-request';
import {
  canDeleteSsoAccount,
  canEditSsoEmail,
  deleteConfirmationMatches,
  passwordChangeProblem,
  ssoEmailProblem,
} from '../../engine/domain/ssoProfile';
import { maskEmailName, normalizeEmail } from '../../engine/domain/fieldRules';
import { badRequest, HttpError, notFound } from '../http/errors';
import { refuse } from '../tenancy/refusals';
import { recordEvent } from '../events/recordEvent';
import { enqueueMail } from '../store/mailQueueStore';
import { hashToken, newSecretToken } from '../auth/tokens';
import { hashPassword, verifyPassword } from '../auth/passwords';
import {
  consumeRateLimit,
  countingFailuresOfSecret,
  DEFAULT_SIGN_IN_LIMITS,
  signInRules,
  limitGuess,
  recordGuessFailure,
  recordGuessSuccess,
  type SignInLimits,
} from '../auth/rateLimit';
import { getUserById, replacePasswordHash } from '../store/userStore';
import { insertLoginToken, peekLoginToken, voidLoginTokens } from '../store/authStore';
import { LINK_LOGIN_PURPOSES } from '../auth/signInMailJobs';
import { lockUntilCommit } from '../store/transactionLocks';
import { revokeSsoSessionsOfUser } from '../store/ssoSessionStore';
import {
  EMAIL_CHANGE_PURPOSE,
  EMAIL_CHANGE_UNDO_PURPOSE,
  clearPassword,
  consumeEmailChange,
  consumeEmailChangeUndo,
  revokeAllSessions,
  emailTaken,
  pendingEmailChange,
  revokeOtherSessions,
  setUserEmail,
  retireAddress,
  voidEmailChanges,
  voidLaterEmailChangeUndos,
} from '../store/ssoProfileStore';
import { deleteAccountData } from '../store/accountDeletionStore';
import type { AccountCaller } from '../account/accountContext';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { Locale } from '../../engine/domain/locales';
import { ssoMail, ssoReply } from './ssoProfileTexts';

/** How long the link to confirm a new address works. */
export const EMAIL_CHANGE_LINK_HOURS = 24;
/**
 * How long the notice to the old address can take the account back: a session someone else holds
 * (a stolen one) must not turn into the account for good by moving it to their own mailbox.
 */
export const EMAIL_CHANGE_UNDO_DAYS = 14;
/** Each request mails an address the account chose: at most this many per account and hour (no mail cannon). */
export const EMAIL_CHANGES_PER_HOUR = 5;

export function createSsoProfileService(deps: {
  db: Database;
  mailFrom: string;
  now: () => Date;
  signInLimits?: SignInLimits;
}) {
  const { db } = deps;
  const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;

  // The sso-profile-page flag is checked where the slice is mounted (ssoProfileSlice).
  async function account(caller: AccountCaller) {
    const user = await getUserById(db, caller.tenant.id, caller.user.id);
    if (!user) throw notFound('There is no such account.');
    return user;
  }

  /** The password section needs password sign-in on the tenant: a password nobody can use is not offered. */
  const passwordsOffered = (tenant: ServerTenant) => tenant.login.password === true;

  return {
    async profile(caller: AccountCaller): Promise<SsoProfile> {
      const user = await account(caller);
      return {
        email: user.email,
        hasPassword: Boolean(user.passwordHash),
        pendingEmail: canEditSsoEmail(caller.tenant)
          ? await pendingEmailChange(db, caller.tenant.id, user.id, deps.now())
          : null,
        editEmail: canEditSsoEmail(caller.tenant),
        deleteEmail: canDeleteSsoAccount(caller.tenant),
        passwordLogin: passwordsOffered(caller.tenant),
      };
    },

    async updatePassword(
      caller: AccountCaller,
      body: SsoPasswordRequest,
      client: string,
    ): Promise<SsoMessageAnswer> {
      const user = await account(caller);
      if (!passwordsOffered(caller.tenant)) throw refuse.featureDisabled('password sign-in');
      const hasPassword = Boolean(user.passwordHash);
      const problem = passwordChangeProblem(
        { currentPassword: body.currentPassword, newPassword: body.newPassword },
        hasPassword,
      );
      if (problem === 'current_required')
        throw badRequest('validation_failed', 'Please enter your current password.', {
          fields: { currentPassword: 'required' },
        });
      if (problem)
        throw badRequest('validation_failed', 'The new password does not meet the rules.', {
          fields: { newPassword: problem },
        });
      if (hasPassword) {
        // Wrong current passwords count like wrong sign-ins; a correct one gives its place back.
        const given = { target: user.email, client };
        const at = deps.now();
        await limitGuess(db, caller.tenant.id, limits, 'password', given, at);
        if (!(await verifyPassword(body.currentPassword ?? '', user.passwordHash))) {
          await recordGuessFailure(db, caller.tenant.id, limits, 'password', given, at);
          throw badRequest('wrong_password', 'The current password is not correct.', {
            fields: { currentPassword: 'wrong' },
          });
        }
        await recordGuessSuccess(db, caller.tenant.id, limits, 'password', given, at);
      }
      const passwordHash = await hashPassword(body.newPassword);
      await db.transaction(async (tx) => {
        // The current password was checked against this hash: a change made meanwhile with the
        // same one (another tab, a request sent twice) has made it not current any more.
        if (!(await replacePasswordHash(tx, caller.tenant.id, user.id, user.passwordHash, passwordHash))) {
          // A first password, set meanwhile in another window: this form asked for no current one.
          if (!hasPassword)
            throw new HttpError(
              409,
              'password_set_meanwhile',
              'A password was set for this account meanwhile. Enter it as the current password to change it.',
            );
          throw badRequest('wrong_password', 'The current password is not correct.', {
            fields: { currentPassword: 'wrong' },
          });
        }
        await revokeOtherSessions(tx, caller.tenant.id, user.id, caller.user.sessionId);
        // As a reset does (server/auth/commands/passwordReset.ts): the sign-in and reset links
        // mailed before the change sign nobody in after it.
        await voidLoginTokens(
          tx,
          caller.tenant.id,
          user.email,
          ['reset', ...LINK_LOGIN_PURPOSES],
          deps.now(),
        );
        await revokeSsoSessionsOfUser(tx, caller.tenant.id, user.id);
        await recordEvent(tx, caller.tenant.id, 'sso_profile.password_changed', { userId: user.id });
      });
      return { message: ssoReply('passwordChanged', caller.locale) };
    },

    async requestEmailChange(
      caller: AccountCaller,
      rawEmail: string,
      portalUrl: string,
    ): Promise<SsoMessageAnswer> {
      const user = await account(caller);
      if (!canEditSsoEmail(caller.tenant)) throw refuse.featureDisabled('e-mail changes');
      const problem = ssoEmailProblem(rawEmail, user.email);
      if (problem)
        throw badRequest(
          'validation_failed',
          'Please enter a valid new e-mail address (at most 50 characters).',
          { fields: { email: problem } },
        );
      const email = normalizeEmail(rawEmail);
      const { tenant } = caller;
      await consumeRateLimit(
        db,
        tenant.id,
        { bucket: `sso-email-change:${user.id}`, windowSeconds: 3600, limit: EMAIL_CHANGES_PER_HOUR },
        deps.now(),
      );
      await db.transaction(async (tx) => {
        // One request at a time: the next voids this one's link, so only the newest link works.
        await lockUntilCommit(tx, `sso-email-change:${tenant.id}:${user.id}`);
        await voidEmailChanges(tx, tenant.id, user.id, deps.now());
        // The pending change is stored for a taken address too, with a link that is never sent (its
        // confirmation checks the address again): the answer and the profile read after it must not
        // tell who has an account, and the profile shows the pending address.
        const token = newSecretToken();
        await insertLoginToken(tx, tenant.id, {
          tokenHash: hashToken(token),
          email,
          purpose: EMAIL_CHANGE_PURPOSE,
          expiresAt: new Date(deps.now().getTime() + EMAIL_CHANGE_LINK_HOURS * 3_600_000),
          payload: { userId: user.id },
        });
        // The earlier links are void (voidEmailChanges above): a mail of one still queued goes
        // unsent, whichever mail this request sends, so which it sends shows in no earlier mail.
        const replacing = `email-change:${user.id}`;
        if (await emailTaken(tx, tenant.id, email, user.id)) {
          await enqueueMail(
            tx,
            {
              tenantId: tenant.id,
              to: email,
              from: deps.mailFrom,
              ...ssoMail('emailTaken', caller.locale, { tenant: tenant.name }),
            },
            { replacing },
          );
        } else {
          const link = `${portalUrl}sso-profile?emailToken=${encodeURIComponent(token)}&lang=${caller.locale.slice(0, 2)}`;
          await enqueueMail(
            tx,
            {
              tenantId: tenant.id,
              to: email,
              from: deps.mailFrom,
              ...ssoMail('confirmNewEmail', caller.locale, { tenant: tenant.name, link }),
            },
            { replacing },
          );
        }
        await recordEvent(tx, tenant.id, 'sso_profile.email_change_requested', { userId: user.id });
      });
      return { message: ssoReply('emailChangeRequested', caller.locale, { email }) };
    },

    /**
     * The link's token, opened by the same account: the new address counts; the old one is told,
     * with the link that takes the account back (undoEmailChange).
     */
    async confirmEmailChange(
      caller: AccountCaller,
      token: string,
      portalUrl: string,
    ): Promise<SsoMessageAnswer & { email: string }> {
      const user = await account(caller);
      if (!canEditSsoEmail(caller.tenant)) throw refuse.featureDisabled('e-mail changes');
      const { tenant } = caller;
      return db.transaction(async (tx) => {
        const email = await consumeEmailChange(tx, tenant.id, user.id, hashToken(token), deps.now());
        if (!email) throw notFound('This link has expired or has been used already.');
        if (await emailTaken(tx, tenant.id, email, user.id))
          throw badRequest('email_taken', 'This address cannot be used for your account.', {
            fields: { email: 'taken' },
          });
        try {
          await setUserEmail(tx, tenant.id, user.id, email);
        } catch (error) {
          // 23505, a unique violation: another account took the address in the same moment.
          if ((error as { code?: string }).code === '23505')
            throw badRequest('email_taken', 'This address cannot be used for your account.', {
              fields: { email: 'taken' },
            });
          throw error;
        }
        // The old address is the account's no more: it signs nobody in for its partners, whatever
        // the order system still has on record (docs/subscribers.md "E-mail").
        await retireAddress(tx, tenant.id, user.id, { from: user.email, to: email });
        const undo = newSecretToken();
        await insertLoginToken(tx, tenant.id, {
          tokenHash: hashToken(undo),
          email: user.email,
          purpose: EMAIL_CHANGE_UNDO_PURPOSE,
          expiresAt: new Date(deps.now().getTime() + EMAIL_CHANGE_UNDO_DAYS * 86_400_000),
          payload: { userId: user.id },
        });
        const link = `${portalUrl}sso-profile/undo?token=${encodeURIComponent(undo)}&lang=${caller.locale.slice(0, 2)}`;
        await enqueueMail(tx, {
          tenantId: tenant.id,
          to: user.email,
          from: deps.mailFrom,
          ...ssoMail('emailChangedNotice', caller.locale, {
            tenant: tenant.name,
            masked: maskEmailName(email),
            link,
            days: String(EMAIL_CHANGE_UNDO_DAYS),
          }),
        });
        await recordEvent(tx, tenant.id, 'sso_profile.email_changed', { userId: user.id, email });
        return { message: ssoReply('emailChanged', caller.locale, { email }), email };
      });
    },

    /**
     * The link of the notice to the old address, opened without a session (the old mailbox is the
     * proof): the account signs in with that address again (unless another account has it by
     * now), the address it was moved to is retired, pending changes are void and so are the undo
     * links of the changes made after it (voidLaterEmailChangeUndos), every session ends
     * and the password goes (whoever moved the address could reset it at their own mailbox). The
     * mailbox signs in again by link and may set a new password.
     */
    /**
     * Whether an undo link still takes an account back: its page says a spent or voided one at once
     * rather than offering a button that can only fail (engine/core/mailedLink.ts). Opening it
     * changes nothing; a token that opens nothing counts against the client, as at the button.
     */
    async undoLinkState(tenant: ServerTenant, token: string, client: string): Promise<{ open: boolean }> {
      if (!canEditSsoEmail(tenant)) throw refuse.featureDisabled('e-mail changes');
      const rules = signInRules(limits, 'token', { client });
      return countingFailuresOfSecret(db, tenant.id, rules, deps.now(), async () => {
        const open =
          token !== '' &&
          (await peekLoginToken(db, tenant.id, hashToken(token), EMAIL_CHANGE_UNDO_PURPOSE, deps.now())) !==
            undefined;
        if (!open) throw notFound('This link has expired or has been used already.');
        return { open };
      }).catch((error: unknown) => {
        if (error instanceof HttpError && error.status === 404) return { open: false };
        throw error;
      });
    },

    async undoEmailChange(
      tenant: ServerTenant,
      token: string,
      locale: Locale,
      client: string,
    ): Promise<SsoMessageAnswer> {
      if (!canEditSsoEmail(tenant)) throw refuse.featureDisabled('e-mail changes');
      // Only refused tokens count against the client, as for every mailed link's.
      const rules = signInRules(limits, 'token', { client });
      return countingFailuresOfSecret(db, tenant.id, rules, deps.now(), () =>
        db.transaction(async (tx) => {
          const undo = await consumeEmailChangeUndo(tx, tenant.id, hashToken(token), deps.now());
          const user = undo && (await getUserById(tx, tenant.id, undo.userId));
          if (!undo || !user) throw notFound('This link has expired or has been used already.');
          if (await emailTaken(tx, tenant.id, undo.previous, user.id))
            throw badRequest('email_taken', 'Another account signs in with this address now.', {
              fields: { email: 'taken' },
            });
          if (user.email !== undo.previous) {
            await setUserEmail(tx, tenant.id, user.id, undo.previous);
            await retireAddress(tx, tenant.id, user.id, { from: user.email, to: undo.previous });
          }
          await voidEmailChanges(tx, tenant.id, user.id, deps.now());
          await voidLaterEmailChangeUndos(tx, tenant.id, user.id, undo.madeAt, deps.now());
          await revokeAllSessions(tx, tenant.id, user.id);
          await revokeSsoSessionsOfUser(tx, tenant.id, user.id);
          await clearPassword(tx, tenant.id, user.id);
          await recordEvent(tx, tenant.id, 'sso_profile.email_changed', {
            userId: user.id,
            email: undo.previous,
          });
          return { message: ssoReply('emailChangeUndone', locale, { email: undo.previous }) };
        }),
      );
    },

    /** §4 "SSO delete": the typed address must match; an empty message is the success (§7). */
    async deleteAccount(caller: AccountCaller, typed: string): Promise<SsoMessageAnswer> {
      const user = await account(caller);
      if (!canDeleteSsoAccount(caller.tenant)) throw refuse.featureDisabled('account deletion');
      if (!deleteConfirmationMatches(typed, user.email)) {
        throw badRequest('validation_failed', 'Please type the e-mail address of your account to confirm.', {
          fields: { email: 'mismatch' },
        });
      }
      const { tenant } = caller;
      await db.transaction(async (tx) => {
        await deleteAccountData(tx, tenant.id, user.id, user.email, deps.now());
        await recordEvent(tx, tenant.id, 'sso_profile.deleted', { userId: user.id });
        await enqueueMail(tx, {
          tenantId: tenant.id,
          to: user.email,
          from: deps.mailFrom,
          ...ssoMail('accountDeleted', caller.locale, { tenant: tenant.name }),
        });
      });
      return { message: '' };
    },
  };
}

export type SsoProfileService = ReturnType<typeof createSsoProfileService>;
