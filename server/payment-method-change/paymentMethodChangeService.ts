/**
 * Payment method change (account-flows.md §2 "Payment details", §3, §4 "Payment method change", §5
 * SEPA and direct debit, §7, §8; portal-core.md §6 capability, §9 payment method mapping). Only the
 * tenant's directions (paymentMethodChange.allowedChanges) are offered or accepted; updating the
 * active method needs the tenant to list it under itself. A change takes effect at the end of the
 * payment period (§4): it is recorded as the subscription's pending change and applied on that day
 * by the due-changes job (server/jobs/dueChanges.ts). SEPA and direct debit are saved at once; card
 * and PayPal are registered on the payment provider's page (server/payments/, amount 0) and
 * recorded when it succeeds. Only masked account data is kept.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Database, Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { Subscription } from '../../schemas/generated/subscription';
import type { PaymentDetails, PaymentPopupAnswer } from '../../schemas/generated/account-changes';
import type { SepaRequest } from '../../schemas/generated/sepa-request';
import type { DirectDebitRequest } from '../../schemas/generated/direct-debit-request';
import { maskBankAccount, normalizeIban } from '../../engine/domain/iban';
import {
  allowedPaymentChanges,
  directDebitErrors,
  sepaErrors,
} from '../../engine/domain/paymentMethodChange';
import { capToTerm, endOfPaymentPeriod, lastDayOfTerm } from '../../engine/domain/subscriptionTerm';
import { badRequest } from '../http/errors';
import { enqueueMail } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import { getUserById } from '../store/userStore';
import {
  cancelPendingRegistrations,
  findPaymentRecord,
  settlePaymentRecord,
  type PaymentRow,
} from '../store/paymentStore';
import type { AccountEventData } from '../events/eventTypes';
import {
  getSubscriptionForUser,
  lockSubscription,
  subscriptionDetailFields,
  updateSubscription,
} from '../store/subscriptionStore';
import { refuse, requireCapability } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { AccountCaller } from '../account/accountContext';
import { changeMail, mailWord } from '../account/changeMails';
import { formatDate } from '../../engine/domain/dates';
import type { PaymentPages } from '../payments/paymentPages';
import type { SettledStatus } from '../payments/paymentProvider';
import { utcDay } from '../../engine/domain/dates';
import { eventOfChange } from '../store/orderSystemOverlays';

type Kind = PaymentDetails['paymentMethod'];
type Caller = AccountCaller;
type StoredAccount = NonNullable<PaymentDetails['account']>;
type Registration = NonNullable<AccountEventData<'payment_method.changed'>['registration']>;

/**
 * Where the provider keeps a card or PayPal registered on its page (docs/going-live.md "Payment
 * details the order system needs"): the page's id there, and for Mollie the customer that holds the
 * mandate (server/payments/mollieGateway.ts makes one per registration).
 */
function registrationOf(payment: PaymentRow): Registration {
  const customerId = payment.providerDetails.customerId;
  return {
    provider: payment.provider as Registration['provider'],
    paymentId: payment.id,
    reference: payment.providerReference,
    customerId: typeof customerId === 'string' ? customerId : null,
  };
}

/** What the subscription keeps of a change (`details.pendingPaymentMethod`). */
export interface PendingPaymentMethod {
  paymentMethod: Kind;
  effectiveFrom: string;
  account: StoredAccount | null;
}

// The day a change takes effect is the domain's (engine/domain/subscriptionTerm.ts), as the tests read it.
export { endOfPaymentPeriod };

export function createPaymentMethodChange(deps: {
  db: Database;
  mailFrom: string;
  now: () => Date;
  paymentPages: PaymentPages;
}) {
  const { db } = deps;

  async function subscriptionOf(tx: Queryable, caller: AccountCaller, id: string): Promise<Subscription> {
    const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id, {
      locale: caller.locale,
    });
    if (!s) throw refuse.notYours('There is no such subscription on your account.');
    requireCapability('paymentMethodChange', s, caller.tenant);
    return s;
  }

  const current = (s: Subscription): Kind => s.paymentDetails?.paymentMethod ?? 'invoice';
  const allowed = (tenant: ServerTenant, s: Subscription): Kind[] =>
    allowedPaymentChanges(tenant.paymentMethodChange, current(s));
  function requireDirection(tenant: ServerTenant, s: Subscription, to: Kind) {
    if (!allowed(tenant, s).includes(to))
      throw refuse.notAllowed(`This portal does not offer a change from ${current(s)} to ${to}.`);
  }

  async function stored(
    tx: Queryable,
    tenantId: string,
    id: string,
  ): Promise<{ account: StoredAccount | null; pending: PendingPaymentMethod | null }> {
    const details = await subscriptionDetailFields(tx, tenantId, id, [
      'paymentAccount',
      'pendingPaymentMethod',
    ]);
    // Written in these shapes by this slice (updateSubscription below), the demo seed and the order
    // system, whose records the operator API checks against them; one stored before that check is
    // read as no account rather than failing the page.
    const account = objectOrNull(details?.paymentAccount) as StoredAccount | null;
    const pending = objectOrNull(details?.pendingPaymentMethod) as PendingPaymentMethod | null;
    return { account, pending: pending && { ...pending, account: objectOrNull(pending.account) } };
  }

  async function view(tx: Queryable, tenant: ServerTenant, s: Subscription): Promise<PaymentDetails> {
    const { account, pending } = await stored(tx, tenant.id, s.id);
    return {
      paymentMethod: current(s),
      // Masked again on the way out: what the order system sends back may carry the whole account.
      account: account && maskBankAccount(account),
      allowedChanges: allowed(tenant, s),
      // A change recorded before the subscription was cancelled takes effect by its end at the latest.
      pendingChange: pending
        ? {
            paymentMethod: pending.paymentMethod,
            effectiveFrom: capToTerm(pending.effectiveFrom, lastDayOfTerm(s)),
            // The account as it was given, masked: the subscriber sees what the change will debit.
            ...(pending.account ? { account: maskBankAccount(pending.account) } : {}),
          }
        : null,
    };
  }

  /**
   * A bank account given again while the same change waits for the order system's answer (a second
   * press of save, a request sent twice): the change its event holds, whole until the order system
   * answers (store/accountEventStore.ts maskEventAccounts). It is recorded once, so the order
   * system's answer to that one event settles it (a second event would leave a rejection of either
   * one without effect) and the subscriber gets one confirmation.
   */
  async function waitsAlready(
    tx: Queryable,
    tenantId: string,
    s: Subscription,
    to: Kind,
    given: StoredAccount,
  ) {
    const { pending } = await stored(tx, tenantId, s.id);
    if (pending?.paymentMethod !== to) return false;
    const eventId = await eventOfChange(tx, tenantId, 'subscriptions', s.id, 'details.pendingPaymentMethod');
    if (!eventId) return false;
    const [event] = await tx.query<{ to: unknown; account: unknown }>(
      `select data->'to' as to, data->'account' as account from account_events where tenant_id = $1 and id = $2::uuid`,
      [tenantId, eventId],
    );
    return event?.to === to && isDeepStrictEqual(event.account, given);
  }

  /** Records the change (in the caller's transaction) with its event and confirmation e-mail. */
  async function record(
    tx: Queryable,
    tenant: ServerTenant,
    who: { user: { id: string; email: string }; locale: Locale },
    s: Subscription,
    to: Kind,
    /** The bank account as typed (null: a card or PayPal, which the provider keeps). */
    given: StoredAccount | null,
    /** A card or PayPal: where its provider keeps it (the registration payment). */
    registration: Registration | null = null,
  ) {
    const effectiveFrom = endOfPaymentPeriod(s, utcDay(deps.now()));
    // The portal keeps it masked, as the screens show it (account-flows.md §3).
    const account = given && maskBankAccount(given);
    const pending: PendingPaymentMethod = { paymentMethod: to, effectiveFrom, account };
    await updateSubscription(tx, tenant.id, s.id, { details: { pendingPaymentMethod: pending } });
    await recordEvent(tx, tenant.id, 'payment_method.changed', {
      userId: who.user.id,
      subscriptionId: s.id,
      orderNumber: s.orderNumber,
      from: current(s),
      to,
      effectiveFrom,
      // The whole account, for the order system to set up the debit; masked once it answered
      // (docs/going-live.md "Payment details the order system needs", store/accountEventStore.ts).
      ...(given ? { account: given } : {}),
      // A card or PayPal: where the provider keeps it, for the order system to charge it there.
      ...(registration ? { registration } : {}),
    });
    const mail = changeMail('paymentMethod', who.locale, {
      tenant: tenant.name,
      subscription: s.displayName,
      orderNumber: s.orderNumber,
      from: formatDate(effectiveFrom, who.locale),
      method: mailWord(who.locale, to),
    });
    await enqueueMail(tx, { tenantId: tenant.id, to: who.user.email, from: deps.mailFrom, ...mail });
  }

  async function recordSettled(
    tx: Queryable,
    tenant: ServerTenant,
    payment: PaymentRow,
    status: SettledStatus,
  ) {
    await recordEvent(tx, tenant.id, 'payment.settled', {
      userId: payment.userId,
      paymentId: payment.id,
      status,
      amount: payment.amount,
      currency: payment.currency,
      subscriptionIds: [String(payment.details.subscriptionId ?? '')],
    });
  }

  return {
    async details(caller: AccountCaller, id: string): Promise<PaymentDetails> {
      const s = await subscriptionOf(db, caller, id);
      return view(db, caller.tenant, s);
    },

    async sepa(caller: AccountCaller, id: string, body: SepaRequest): Promise<PaymentDetails> {
      const errors = sepaErrors(body);
      if (errors.length > 0)
        throw badRequest('validation_failed', 'Please check the bank details.', {
          fields: Object.fromEntries(errors.map((e) => [e.field, e.code])),
        });
      return db.transaction(async (tx) => {
        await lockSubscription(tx, caller.tenant.id, id);
        const s = await subscriptionOf(tx, caller, id);
        requireDirection(caller.tenant, s, 'sepa');
        const bic = body.bic ? body.bic.replace(/\s+/g, '').toUpperCase() : null;
        const given = {
          debitAccountHolder: body.debitAccountHolder.trim(),
          iban: normalizeIban(body.iban),
          bic,
        };
        if (!(await waitsAlready(tx, caller.tenant.id, s, 'sepa', given)))
          await record(tx, caller.tenant, caller, s, 'sepa', given);
        return view(tx, caller.tenant, s);
      });
    },

    async directDebit(caller: AccountCaller, id: string, body: DirectDebitRequest): Promise<PaymentDetails> {
      const errors = directDebitErrors(body);
      if (errors.length > 0)
        throw badRequest('validation_failed', 'Please check the bank details.', {
          fields: Object.fromEntries(errors.map((e) => [e.field, e.code])),
        });
      return db.transaction(async (tx) => {
        await lockSubscription(tx, caller.tenant.id, id);
        const s = await subscriptionOf(tx, caller, id);
        requireDirection(caller.tenant, s, 'direct_debit');
        const given = {
          debitAccountHolder: body.debitAccountHolder.trim(),
          debitAccountNumber: body.debitAccountNumber.trim(),
          debitBankCode: body.debitBankCode,
          debitBankName: body.debitBankName?.trim() || null,
        };
        if (!(await waitsAlready(tx, caller.tenant.id, s, 'direct_debit', given)))
          await record(tx, caller.tenant, caller, s, 'direct_debit', given);
        return view(tx, caller.tenant, s);
      });
    },

    /**
     * POST …/payment-details/credit-card and /paypal: the provider's page to register it on (nothing
     * is charged). It replaces the user's earlier page for the subscription that was not finished.
     */
    async popup(caller: Caller, id: string, to: 'credit_card' | 'paypal'): Promise<PaymentPopupAnswer> {
      return db.transaction(async (tx) => {
        await lockSubscription(tx, caller.tenant.id, id);
        const s = await subscriptionOf(tx, caller, id);
        requireDirection(caller.tenant, s, to);
        for (const replaced of await cancelPendingRegistrations(tx, caller.tenant.id, caller.user.id, s.id))
          await recordSettled(tx, caller.tenant, replaced, 'canceled');
        const payment = await deps.paymentPages.start(tx, {
          tenant: caller.tenant,
          userId: caller.user.id,
          locale: caller.locale,
          basePath: caller.basePath,
          method: to === 'credit_card' ? 'CREDIT_CARD' : 'PAYPAL',
          amount: 0,
          currency: s.renewal?.orderCurrency ?? 'EUR',
          description: `${s.displayName} (${s.orderNumber}): ${mailWord(caller.locale, to)}`,
          purpose: 'payment-method',
          details: { subscriptionId: s.id, method: to },
        });
        return { url: payment.url, pendingPayment: { id: payment.id, subscriptionId: s.id } };
      });
    },

    /** The provider's outcome of a registration: on success the change is recorded. Once only. */
    async settle(tenant: ServerTenant, paymentId: string, status: SettledStatus): Promise<boolean> {
      return db.transaction(async (tx) => {
        const payment = await findPaymentRecord(tx, tenant.id, paymentId, true);
        if (!payment || payment.status !== 'pending' || payment.purpose !== 'payment-method') return false;
        const user = await getUserById(tx, tenant.id, payment.userId);
        const subscriptionId = String(payment.details.subscriptionId ?? '');
        const to = payment.details.method === 'paypal' ? 'paypal' : 'credit_card';
        let outcome: SettledStatus = status;
        if (status === 'success') {
          await lockSubscription(tx, tenant.id, subscriptionId);
          const s = user
            ? await getSubscriptionForUser(tx, tenant.id, user.id, subscriptionId, { locale: payment.locale })
            : null;
          // The change is judged again as it is recorded: the tenant may have taken the direction
          // away while the page was open.
          if (user && s && allowed(tenant, s).includes(to))
            await record(tx, tenant, { user, locale: payment.locale }, s, to, null, registrationOf(payment));
          else outcome = 'error';
        }
        await settlePaymentRecord(tx, tenant.id, paymentId, outcome, null);
        await recordSettled(tx, tenant, payment, outcome);
        return true;
      });
    },
  };
}

export type PaymentMethodChange = ReturnType<typeof createPaymentMethodChange>;

function objectOrNull(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
