/**
 * The opt-in widget (account-flows.md §2 "Opt-in widget", §3 payload and "response voucherCode", §5,
 * §7 POST /opt-in, §8 "Opt-in widget disabled", "voucher codes exhausted: contact phone support").
 * A sign-up is a marketing opt-in, so it is confirmed by double opt-in: the POST mails a link to the
 * address and answers only that it did; the voucher code is drawn when the link is confirmed and
 * shown on that page (and mailed). So nobody farms codes with made-up addresses (docs/subscribers.md
 * "Opt-in widget"). Codes are handed out once each (`for update skip locked`), one per mailbox and
 * provider.
 */
import type { Database } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { OptInWidgetRequest } from '../../schemas/generated/opt-in-widget-request';
import type { OptInWidgetConfirmation } from '../../schemas/generated/opt-in-widget-confirmation';
import {
  OPT_IN_WIDGET_LINK_DAYS,
  optInWidgetProblems,
  optInWidgetProvider,
} from '../../engine/domain/widgets';
import { mailboxOf, normalizeEmail } from '../../engine/domain/fieldRules';
import { HttpError, badRequest, notFound } from '../http/errors';
import { hashToken, newSecretToken } from '../auth/tokens';
import { enqueueMail } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import {
  claimVoucherCode,
  findOptInWidgetSignup,
  hasFreeVoucherCode,
  insertOptInWidgetSignup,
  markSignupConfirmed,
  voucherOfAddress,
} from '../store/widgetStore';
import type { ServerTenant } from '../tenancy/tenantContext';
import { optInWidgetMail } from './optInWidgetMails';
import { langParam } from '../../engine/domain/language';
import { lockUntilCommit } from '../store/transactionLocks';
import { limitFactCheckedAttempt, mayMailUnproven, type SignInLimits } from '../auth/rateLimit';

const exhausted = () =>
  new HttpError(
    409,
    'voucher_codes_exhausted',
    'All voucher codes have been handed out. Please call our customer service.',
  );

/** The provider or the refusal the screen turns into the fallback-contact message (§8). */
function providerOr404(tenant: ServerTenant, code: string) {
  const provider = optInWidgetProvider(tenant, code);
  if (!provider) throw new HttpError(404, 'provider_not_found', 'This sign-up is not offered.');
  return provider;
}

export function createOptInWidget(deps: { db: Database; mailFrom: string; now: () => Date }) {
  const { db } = deps;
  return {
    /**
     * GET /opt-in/providers/{provider}: whether the provider's pool still has codes, so the page says
     * so before anyone types (§8 "voucher codes exhausted"). The same for everybody; nothing personal.
     */
    async provider(tenant: ServerTenant, code: string): Promise<{ provider: string; codesLeft: boolean }> {
      const provider = providerOr404(tenant, code);
      const pool = provider.voucherCodeKey ?? null;
      return { provider: provider.code, codesLeft: !pool || (await hasFreeVoucherCode(db, tenant.id, pool)) };
    },

    /** POST /opt-in: a pending sign-up and its confirmation mail. */
    async signUp(
      tenant: ServerTenant,
      body: OptInWidgetRequest,
      origin: { portalUrl: string; locale: Locale; client: string },
      limits: SignInLimits,
    ): Promise<void> {
      const provider = providerOr404(tenant, body.provider);
      const problems = optInWidgetProblems(body);
      if (Object.keys(problems).length > 0)
        throw badRequest('validation_failed', 'Please check the form.', { fields: problems });
      const salutations = tenant.salutations?.options;
      if (
        salutations?.length &&
        !salutations.some((s) => s.code === body.salutationCode && s.isUserSelectable !== false)
      ) {
        throw badRequest('validation_failed', 'Please check the form.', {
          fields: { salutationCode: 'invalid' },
        });
      }
      const email = normalizeEmail(body.email);
      // Counted once the request is one that mails (a refused one sends nothing), against the client
      // and the address *and* client. Not against the mailbox's budget that the owner's login links
      // draw on, which anyone typing the address could spend: the mailbox is capped below, in its
      // budget of mails anyone may ask for it (rateLimit.ts unprovenMailboxRule; docs/architecture.md
      // "Sign-in safety").
      await limitFactCheckedAttempt(
        db,
        tenant.id,
        limits,
        'opt-in-widget',
        { address: email, client: origin.client },
        deps.now(),
      );
      const pool = provider.voucherCodeKey ?? null;
      await db.transaction(async (tx) => {
        // Said before anything is mailed (§8): the pool is empty for everybody, nothing personal is revealed.
        if (pool && !(await hasFreeVoucherCode(tx, tenant.id, pool))) throw exhausted();
        // Over the mailbox's budget of such mails nothing is made: it has had this window's.
        if (!(await mayMailUnproven(tx, tenant.id, limits, email, deps.now()))) return;
        const token = newSecretToken();
        const signupId = await insertOptInWidgetSignup(tx, {
          tenantId: tenant.id,
          provider: provider.code,
          pool,
          salutationCode: body.salutationCode,
          firstName: body.firstName.trim(),
          lastName: body.lastName1.trim(),
          email,
          locale: origin.locale,
          tokenHash: hashToken(token),
          expiresAt: new Date(deps.now().getTime() + OPT_IN_WIDGET_LINK_DAYS * 86_400_000),
        });
        await recordEvent(tx, tenant.id, 'opt_in_widget.signed_up', {
          userId: null,
          signupId,
          provider: provider.code,
        });
        const link = `${origin.portalUrl}opt-in-widget?provider=${encodeURIComponent(provider.code)}&token=${encodeURIComponent(token)}&lang=${langParam(origin.locale)}`;
        const mail = optInWidgetMail('optInWidgetConfirm', origin.locale, {
          tenant: tenant.name,
          name: `${body.firstName.trim()} ${body.lastName1.trim()}`,
          link,
        });
        await enqueueMail(tx, { tenantId: tenant.id, to: email, from: deps.mailFrom, ...mail });
      });
    },

    /**
     * POST /opt-in/confirm: confirms the sign-up and hands out its code — the same code when the
     * link is opened again or the address already has one from this provider.
     */
    async confirm(tenant: ServerTenant, token: string): Promise<OptInWidgetConfirmation> {
      return db.transaction(async (tx) => {
        const now = deps.now();
        const signup = await findOptInWidgetSignup(tx, tenant.id, hashToken(token), now);
        if (!signup) throw notFound('This link has expired or is not valid. Please sign up again.');
        // Opened again: the same code. A sign-up whose mailbox had its code already (a `+tag` of the
        // address) keeps none of its own: the mailbox's is shown again.
        if (signup.confirmedAt)
          return {
            provider: signup.provider,
            voucherCode:
              signup.voucherCode ??
              (await voucherOfAddress(tx, tenant.id, signup.provider, signup.email)) ??
              null,
          };
        // One voucher per mailbox and provider (name+tag@ is name@'s mailbox): concurrent
        // confirmations of one mailbox wait for each other here.
        await lockUntilCommit(tx, `opt-in-widget:${tenant.id}:${signup.provider}:${mailboxOf(signup.email)}`);
        let code = (await voucherOfAddress(tx, tenant.id, signup.provider, signup.email)) ?? null;
        const fresh = code === null;
        if (fresh && signup.pool) {
          code = (await claimVoucherCode(tx, tenant.id, signup.pool, signup.id, now)) ?? null;
          if (code === null) throw exhausted();
        }
        await markSignupConfirmed(tx, tenant.id, signup.id, fresh ? code : null, now);
        await recordEvent(tx, tenant.id, 'opt_in_widget.confirmed', {
          userId: null,
          signupId: signup.id,
          provider: signup.provider,
          email: signup.email,
          salutationCode: signup.salutationCode,
          firstName: signup.firstName,
          lastName1: signup.lastName,
          voucherCode: code,
        });
        if (code && fresh) {
          const mail = optInWidgetMail('optInWidgetVoucher', signup.locale, {
            tenant: tenant.name,
            name: `${signup.firstName} ${signup.lastName}`,
            code,
          });
          await enqueueMail(tx, { tenantId: tenant.id, to: signup.email, from: deps.mailFrom, ...mail });
        }
        return { provider: signup.provider, voucherCode: code };
      });
    },
  };
}

export type OptInWidget = ReturnType<typeof createOptInWidget>;
