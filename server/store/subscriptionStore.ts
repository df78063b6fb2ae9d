/**
 * SQL for the subscriptions a signed-in user may see (portal-core.md §3 "Subscription").
 *
 * Visibility (docs/architecture.md "Data and the server"): a user sees a subscription only when one of the
 * business partners linked to their account (user_business_partners) holds a role on it
 * (subscription_roles), all within the one tenant given by the caller — every table in every query
 * is filtered by tenant_id.
 *
 * What a role may see (portal-core.md §2 "Subscription detail", §6): payment data (payment method,
 * billing, amounts, premium) and the ordering party's address go to the ordering party (AG) only;
 * the goods recipient's address to the ordering party and the recipient. The API never sends what
 * the screens would hide.
 */
import type { Queryable } from '../db/database';
import type {
  BusinessPartnerRole,
  BusinessPartnerSummary,
  Issue,
  OrderStatusCode,
  Renewal,
  Role,
  Subscription,
  SubscriptionDetails,
} from './rows';
import { ROLES } from './rows';
import { localizedDetails, localizedRow, type Translations } from './localizedDetails';
import { capToTerm, lastDayOfTerm, withinTerm } from '../../engine/domain/subscriptionTerm';
import { paymentKindOfCodes } from '../../engine/domain/paymentMethodChange';
import {
  formatOf,
  type Acceptance,
  type CancellationState,
  type LifecycleState,
  type Transition,
} from '../../engine/domain/lifecycle';
import type { OrderStatus } from '../../engine/domain/orderStatus';
import { LOCALES } from '../../engine/domain/locales';
import { textsIn } from '../texts/serverTexts';

interface SubscriptionQueryRow {
  id: string;
  client_id: string;
  order_number: string;
  publication: string;
  publication_name: string | null;
  cover_image_url: string | null;
  order_status: OrderStatusCode;
  mix_type: string;
  bundle_number: string | null;
  cust_order_date: string | null;
  valid_from: string | null;
  valid_to: string | null;
  details: SubscriptionDetails | null;
  /** The user's own (bp number, role) pairs on the subscription. */
  mine: BusinessPartnerRole[];
  /** Every one of the user's roles on it comes from a licence (a licence user). */
  via_license: boolean;
  /** Every party with a role on it, with name and address. */
  parties: BusinessPartnerSummary[] | null;
  next_issue: (Issue & { translations?: Translations<Issue> | null }) | null;
}

// Dates leave the database as 'YYYY-MM-DD' text whatever driver parsers are configured.
const SELECT_SUBSCRIPTIONS = `
  with mine as (
    select sr.subscription_id,
           jsonb_agg(jsonb_build_object('bpNumber', sr.bp_number::text, 'role', sr.role)
                     order by array_position(array['AG', 'WE', 'RE', 'LV'], sr.role), sr.bp_number) as mine,
           bool_and(sr.via_license) as via_license
      from user_business_partners ubp
      join subscription_roles sr on sr.tenant_id = ubp.tenant_id and sr.bp_number = ubp.bp_number
     where ubp.tenant_id = $1 and ubp.user_id = $2
       and ($3::text is null or sr.subscription_id = $3)
     group by sr.subscription_id
  )
  select s.id, s.client_id, s.order_number::text as order_number, s.publication,
         p.description as publication_name, p.cover_image_url,
         s.order_status, s.mix_type, s.bundle_number,
         to_char(s.cust_order_date, 'YYYY-MM-DD') as cust_order_date,
         to_char(s.valid_from, 'YYYY-MM-DD') as valid_from,
         to_char(s.valid_to, 'YYYY-MM-DD') as valid_to,
         s.details, mine.mine, mine.via_license, parties.parties, next_issue.next_issue
    from mine
    join subscriptions s on s.tenant_id = $1 and s.id = mine.subscription_id
    left join publications p on p.tenant_id = s.tenant_id and p.publication = s.publication
    left join lateral (
      select jsonb_agg(jsonb_build_object(
               'bpNumber', bp.bp_number::text, 'role', r.role, 'salutationCode', bp.salutation_code,
               'firstName', bp.first_name, 'lastName1', bp.last_name1, 'company1', bp.company1,
               'addressLine1', bp.details->>'addressLine1', 'addressLine2', bp.details->>'addressLine2',
               'addressLine3', bp.details->>'addressLine3',
               'street', bp.street, 'streetNumber', bp.street_number,
               'streetNumberSuffix', bp.details->>'streetNumberSuffix', 'zipcode', bp.zipcode,
               'city', bp.city, 'countryCode', bp.country_code)
             order by array_position(array['AG', 'WE', 'RE', 'LV'], r.role), r.bp_number) as parties
        from subscription_roles r
        join business_partners bp on bp.tenant_id = r.tenant_id and bp.bp_number = r.bp_number
       where r.tenant_id = $1 and r.subscription_id = s.id
    ) parties on true
    left join lateral (
      select jsonb_build_object(
               'issue', i.issue, 'issueNumber', i.issue_number, 'description', i.description,
               'dateOfFirstSale', to_char(i.date_of_first_sale, 'YYYY-MM-DD'),
               'dateOfFirstShipping', to_char(i.date_of_first_shipping, 'YYYY-MM-DD'),
               'translations', i.translations) as next_issue
        from issues i
       where i.tenant_id = $1 and i.publication = s.publication
         and i.date_of_first_sale > coalesce($4::date, current_date)
         -- No issue after the end is the next one (engine/domain/subscriptionTerm.ts), nor one
         -- before the start (a trial that begins next month gets its first issue then).
         and (s.valid_to is null or i.date_of_first_sale <= s.valid_to)
         and (s.valid_from is null or i.date_of_first_sale >= s.valid_from)
         -- Nor one that is not delivered: inside a planned holiday break (the issues a break
         -- concerns, engine/domain/holidayService.ts issuesInsideDates) or the order system's
         -- suspension (compared as ISO text: a malformed date in the details cannot fail the list).
         and not exists (
               select 1 from holiday_services h
                where h.tenant_id = $1 and h.subscription_id = s.id and h.type = 'break'
                  and h.status = 'planned' and i.date_of_first_sale between h.date_from and h.date_to)
         and not (
               s.details->'currentSuspension'->>'suspendedFromDate' is not null
               and to_char(i.date_of_first_sale, 'YYYY-MM-DD') >= s.details->'currentSuspension'->>'suspendedFromDate'
               and (s.details->'currentSuspension'->>'suspendedToDate' is null
                    or to_char(i.date_of_first_sale, 'YYYY-MM-DD') <= s.details->'currentSuspension'->>'suspendedToDate'))
       order by i.date_of_first_sale, i.issue
       limit 1
    ) next_issue on s.order_status <> 'I'
   where s.tenant_id = $1
   order by s.cust_order_date desc nulls last, s.id`;

export interface SubscriptionQueryOptions {
  /** Reference date for nextIssue ('YYYY-MM-DD' or a Date, UTC day); the database's current_date by default. */
  today?: string | Date;
  /** The locale of the answer: order-system prose stored in several languages is given in it (server/store/localizedDetails.ts). */
  locale?: string;
}

function isoDay(value: string | Date | undefined): string | null {
  if (value === undefined) return null;
  return typeof value === 'string' ? value : value.toISOString().slice(0, 10);
}

/** The user's subscriptions in this tenant, newest order first (portal-core.md §2 "Orders page"). */
export async function listSubscriptionsForUser(
  db: Queryable,
  tenantId: string,
  userId: string,
  opts: SubscriptionQueryOptions = {},
): Promise<Subscription[]> {
  const rows = await db.query<SubscriptionQueryRow>(SELECT_SUBSCRIPTIONS, [
    tenantId,
    userId,
    null,
    isoDay(opts.today),
  ]);
  return rows.map((row) => toSubscription(row, opts.locale));
}

/** One subscription, or null when it does not exist in this tenant or the user holds no role on it. */
export async function getSubscriptionForUser(
  db: Queryable,
  tenantId: string,
  userId: string,
  subscriptionId: string,
  opts: SubscriptionQueryOptions = {},
): Promise<Subscription | null> {
  const rows = await db.query<SubscriptionQueryRow>(SELECT_SUBSCRIPTIONS, [
    tenantId,
    userId,
    subscriptionId,
    isoDay(opts.today),
  ]);
  return rows[0] ? toSubscription(rows[0], opts.locale) : null;
}

function defined<T>(value: T | undefined, fallback: T): T {
  return value === undefined ? fallback : value;
}

function toSubscription(row: SubscriptionQueryRow, locale: string | undefined): Subscription {
  const d: SubscriptionDetails = localizedDetails(row.details ?? {}, locale);
  const parties = row.parties ?? [];
  const myRoles = ROLES.filter((role) => row.mine.some((m) => m.role === role));
  const isOrderingParty = myRoles.includes('AG');
  // row.mine is sorted AG, WE, RE, LV: the first pair is the partner the user "is" on this subscription.
  const current = row.mine[0];
  const currentParty =
    parties.find((p) => p.bpNumber === current.bpNumber && p.role === current.role) ??
    emptyParty(current.bpNumber, current.role);
  const party = (role: Role) => parties.find((p) => p.role === role);
  const goodsRecipient = party('WE');
  const isGoodsRecipient =
    goodsRecipient !== undefined &&
    row.mine.some((m) => m.role === 'WE' && m.bpNumber === goodsRecipient.bpNumber);

  const subscription: Subscription = {
    id: row.id,
    orderNumber: row.order_number,
    displayName: d.displayName ?? row.publication_name ?? row.publication,
    typeKey: defined(d.typeKey, null),
    publication: row.publication,
    publicationName: row.publication_name ?? row.publication,
    edition: defined(d.edition, null),
    clientId: row.client_id,
    mixType: row.mix_type,
    // A field the order system left out (schemas/api/order-system-subscription.schema.json) is the
    // format's code, no medium, no download and no complaint.
    mixTypeDetails: {
      mixTypeDesc: row.mix_type,
      mediumType: null,
      pdfDownload: false,
      complaintIssues: 0,
      ...d.mixTypeDetails,
    },
    coverImageUrl: row.cover_image_url,
    orderStatus: row.order_status,
    validFromOnSaleDate: row.valid_from,
    validToOnSaleDate: row.valid_to,
    custOrderNumber: defined(d.custOrderNumber, null),
    custOrderDate: row.cust_order_date,
    isRenewal: d.isRenewal ?? false,
    isTimebased: d.isTimebased ?? false,
    isMultiLicense: d.isMultiLicense ?? false,
    isLicenseUser: row.via_license === true,
    isCombiSubscription: d.isCombiSubscription ?? false,
    isCancelable: d.isCancelable ?? false,
    salesDocumentType: defined(d.salesDocumentType, null),
    salesSource: defined(d.salesSource, null),
    salesOrganization: defined(d.salesOrganization, null),
    prSourceVar: defined(d.prSourceVar, null),
    roles: myRoles,
    businessPartners: parties.map((p) => ({ role: p.role, bpNumber: p.bpNumber })),
    currentRoleBusinessPartner: currentParty,
    // No issue after the subscription's end is shown as its next
    // (engine/domain/subscriptionTerm.ts).
    nextIssue:
      !row.next_issue ||
      (row.next_issue.dateOfFirstSale && !withinTerm(row.next_issue.dateOfFirstSale, row.valid_to))
        ? null
        : localizedRow(row.next_issue, locale),
    activeHolidayServiceType: defined(d.activeHolidayServiceType, null),
    // As stored, in every language: the subscriber's own entries, which a translation of the order
    // system's (translations replace a list whole) would hide after an edit.
    orderAttributes: row.details?.orderAttributes ?? [],
    bundle: row.bundle_number ? { bundleNumber: row.bundle_number } : null,
    bundles: d.bundles ?? [],
    currentPhase: defined(d.currentPhase, null),
    currentChangeInfo: defined(d.currentChangeInfo, null),
    currentSuspension: defined(d.currentSuspension, null),
    renewal: d.renewal ? renewalFor(d.renewal, isOrderingParty) : null,
  };

  if (isOrderingParty) {
    if (d.paymentMethod !== undefined) subscription.paymentMethod = d.paymentMethod;
    if (d.subOProcessedPMD)
      subscription.subOProcessedPMD = { subPaymentMethod: d.subOProcessedPMD.subPaymentMethod ?? null };
    // The portal's kind where the order system (or a change) named it, else its codes' (§9 mapping).
    if (d.paymentDetails) subscription.paymentDetails = { paymentMethod: d.paymentDetails.paymentMethod };
    else if (d.paymentMethod !== undefined || d.subOProcessedPMD)
      subscription.paymentDetails = {
        paymentMethod: paymentKindOfCodes(d.paymentMethod, d.subOProcessedPMD?.subPaymentMethod),
      };
    // A change the subscriber made, waiting for the end of the payment period: the subscription page
    // shows it beside the method on record, as the payment page does (server/payment-method-change/),
    // by the subscription's last day at the latest.
    if (d.pendingPaymentMethod)
      subscription.paymentDetails = {
        paymentMethod: subscription.paymentDetails?.paymentMethod ?? 'invoice',
        pendingChange: {
          paymentMethod: d.pendingPaymentMethod.paymentMethod,
          from: capToTerm(d.pendingPaymentMethod.effectiveFrom, lastDayOfTerm(subscription)),
        },
      };
    subscription.billingFrequency = defined(d.billingFrequency, null);
    subscription.billingFrequencyShortDescription = defined(d.billingFrequencyShortDescription, null);
    subscription.currentCyclePaidAmount = defined(d.currentCyclePaidAmount, null);
    subscription.currentCycleBundlePaidAmount = defined(d.currentCycleBundlePaidAmount, null);
    subscription.premiumDescription = defined(d.premiumDescription, null);
    // What the offer flows changed for the ordering party (server/offers/applyOffer.ts).
    subscription.plannedUpgrade = d.plannedUpgrade
      ? {
          from: d.plannedUpgrade.from,
          mixTypeDesc: d.plannedUpgrade.mixTypeDesc,
          mixType: d.plannedUpgrade.mixType,
        }
      : null;
    subscription.retentionOffer = d.retentionOffer
      ? { discountPercent: d.retentionOffer.discountPercent, until: d.retentionOffer.until }
      : null;
    const orderingParty = party('AG');
    if (orderingParty) subscription.orderingParty = orderingParty;
  }
  if (goodsRecipient && (isOrderingParty || isGoodsRecipient)) subscription.goodsRecipient = goodsRecipient;
  return subscription;
}

function renewalFor(r: Renewal, isOrderingParty: boolean): Renewal {
  const renewal: Renewal = {
    autoRenewal: r.autoRenewal ?? false,
    orderCurrency: r.orderCurrency ?? 'EUR',
    expiryDesc: defined(r.expiryDesc, null),
    expiryIssueNr: defined(r.expiryIssueNr, null),
    offerClassification: defined(r.offerClassification, null),
    renewalBundleComponent: defined(r.renewalBundleComponent, null),
    maxCycleOfferOfferDescription: defined(r.maxCycleOfferOfferDescription, null),
  };
  if (isOrderingParty) {
    renewal.autoRenewalNextPaymentDate = defined(r.autoRenewalNextPaymentDate, null);
    renewal.autoRenewalNextPaymentAmount = defined(r.autoRenewalNextPaymentAmount, null);
    renewal.autoRenewalLastPaymentAmount = defined(r.autoRenewalLastPaymentAmount, null);
    renewal.autoRenewalLastPaymentFrequencyText = defined(r.autoRenewalLastPaymentFrequencyText, null);
    renewal.autoRenewalLastPaymentFrequency = defined(r.autoRenewalLastPaymentFrequency, null);
    renewal.currentCyclePaidAmount = defined(r.currentCyclePaidAmount, null);
    renewal.currentCycleBundlePaidAmount = defined(r.currentCycleBundlePaidAmount, null);
  }
  return renewal;
}

function emptyParty(bpNumber: string, role: Role): BusinessPartnerSummary {
  return {
    bpNumber,
    role,
    salutationCode: null,
    firstName: null,
    lastName1: null,
    company1: null,
    street: null,
    streetNumber: null,
    zipcode: null,
    city: null,
    countryCode: null,
  };
}

/**
 * Locks the subscription data versions (migration 015) of these tenants in tenant order. A
 * transaction that changes several tenants' subscription data calls it before it commits: the
 * versions are otherwise locked at commit in the order the changes came, and two such transactions
 * could wait for each other.
 */
export async function lockSubscriptionDataVersions(
  db: Queryable,
  tenantIds: readonly string[],
): Promise<void> {
  if (tenantIds.length < 2) return;
  await db.query(
    `select 1 from subscription_data_versions where tenant_id = any($1) order by tenant_id for update`,
    [[...tenantIds]],
  );
}

// --- the lifecycle (engine/domain/lifecycle.ts): loaded and written here, nowhere else -----------

/** Locks the subscription row for the change about to be made (one change at a time per subscription). */
export async function lockSubscription(db: Queryable, tenantId: string, id: string): Promise<void> {
  await db.query(`select 1 from subscriptions where tenant_id = $1 and id = $2 for update`, [tenantId, id]);
}

/**
 * Changes columns and merges `details` keys of a subscription. A key it writes loses its stored
 * translations (server/store/localizedDetails.ts): the new words are the truth in every language
 * until the order system translates them again. Lifecycle fields (status,
 * end, cancellation, offers) are written by saveLifecycle only; this is for what the lifecycle
 * does not decide (holiday display fields, a pending payment method).
 */
export async function updateSubscription(
  db: Queryable,
  tenantId: string,
  id: string,
  change: {
    orderStatus?: string;
    validTo?: string | null;
    mixType?: string;
    details?: Partial<SubscriptionDetails> & Record<string, unknown>;
  },
): Promise<void> {
  await db.query(
    `update subscriptions
        set order_status = coalesce($3, order_status),
            valid_to = case when $4::boolean then $5::date else valid_to end,
            mix_type = coalesce($6, mix_type),
            details = case
              when details ? 'translations' then
                (details || $7::jsonb) || jsonb_build_object('translations', (
                  select coalesce(jsonb_object_agg(t.key, t.value - array(select jsonb_object_keys($7::jsonb))), '{}'::jsonb)
                    from jsonb_each(details->'translations') t))
              else details || $7::jsonb
            end
      where tenant_id = $1 and id = $2`,
    [
      tenantId,
      id,
      change.orderStatus ?? null,
      change.validTo !== undefined,
      change.validTo ?? null,
      change.mixType ?? null,
      JSON.stringify(change.details ?? {}),
    ],
  );
}

interface LifecycleRow {
  status: OrderStatusCode;
  end: string | null;
  mixType: string;
  details: SubscriptionDetails | null;
  cancellation: CancellationState | null;
  acceptances: Array<StoredAcceptance> | null;
}

/** An acceptance as stored: the model's fields and the row's id. */
export type StoredAcceptance = Acceptance & { id?: string };

/** The subscription's lifecycle state (call it under lockSubscription inside the changing transaction). */
export async function loadLifecycle(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<(LifecycleState & { acceptances: readonly StoredAcceptance[] }) | null> {
  const rows = await db.query<LifecycleRow>(
    `select s.order_status as status, s.mix_type as "mixType", s.details,
            -- The end: its date, else the sale day of the last issue the order system names
            -- (renewal.expiryIssueNr without a date), so that a renewal runs on from it, not from today.
            coalesce(to_char(s.valid_to, 'YYYY-MM-DD'),
                     (select to_char(max(i.date_of_first_sale), 'YYYY-MM-DD') from issues i
                       where i.tenant_id = s.tenant_id and i.publication = s.publication
                         and i.issue_number = s.details->'renewal'->>'expiryIssueNr')) as "end",
            (select jsonb_build_object('type', c.type, 'effectiveDate', to_char(c.effective_date, 'YYYY-MM-DD'), 'issueNumber', c.issue_number)
               from cancellations c where c.tenant_id = s.tenant_id and c.subscription_id = s.id) as cancellation,
            -- An acceptance still waiting for a payment that has ended without paying for it (cancelled
            -- with another subscription it paid for, say) has failed: the payment is the truth.
            (select jsonb_agg(jsonb_build_object('id', a.id, 'offerId', a.offer_id, 'source', a.source,
                                                 'status', case when a.status = 'pending' and p.status is not null and p.status <> 'pending' then 'failed' else a.status end,
                                                 'paymentId', a.payment_id,
                                                 'effect', o.effect, 'upgradeTime', a.upgrade_time,
                                                 'on', to_char(coalesce(a.applied_at, a.created_at), 'YYYY-MM-DD')) order by a.created_at, a.id)
               from offer_acceptances a join offers o on o.tenant_id = a.tenant_id and o.id = a.offer_id
               left join payments p on p.tenant_id = a.tenant_id and p.id = a.payment_id
              where a.tenant_id = s.tenant_id and a.subscription_id = s.id) as acceptances
       from subscriptions s where s.tenant_id = $1 and s.id = $2`,
    [tenantId, id],
  );
  const row = rows[0];
  if (!row) return null;
  const d = row.details ?? {};
  const suspension = d.currentSuspension ?? null;
  // A payment method change waiting for its day (server/payment-method-change: details.pendingPaymentMethod).
  const pendingPaymentMethod = (d as Record<string, unknown>).pendingPaymentMethod as
    { effectiveFrom?: string } | null | undefined;
  const paymentMethodDay = pendingPaymentMethod?.effectiveFrom;
  return {
    status: row.status as OrderStatus,
    end: row.end,
    // A subscription without renewal data keeps its last issue with its cancellation only.
    endIssue: d.renewal ? (d.renewal.expiryIssueNr ?? null) : (row.cancellation?.issueNumber ?? null),
    isCancelable: d.isCancelable ?? false,
    cancellation: row.cancellation,
    mixType: row.mixType,
    plannedUpgrade: d.plannedUpgrade
      ? { offerId: d.plannedUpgrade.offerId, mixType: d.plannedUpgrade.mixType, from: d.plannedUpgrade.from }
      : null,
    retention: d.retentionOffer ?? null,
    suspension: suspension ? { from: suspension.suspendedFromDate, to: suspension.suspendedToDate } : null,
    scheduled: paymentMethodDay ? [{ kind: 'payment-method', from: paymentMethodDay }] : [],
    acceptances: row.acceptances ?? [],
    phaseUpgradable: d.currentPhase?.canUpgrade ?? false,
    nextPayment:
      d.renewal?.autoRenewal && d.renewal.autoRenewalNextPaymentDate
        ? { day: d.renewal.autoRenewalNextPaymentDate, everyMonths: Number(d.billingFrequency) || 0 }
        : null,
  };
}

/** What the model does not hold but the rows need: who made the change, and the cancellation's words. */
export interface LifecycleWriteContext {
  userId: string;
  /** The tenant's language, for the words of a planned upgrade's mix type (the screens label the code). */
  locale: string;
  cancelReason?: string | null;
  cancellation?: { reason: string; reasonText: string | null; feedback: string | null };
}

/** A mix type's name (server/texts/<locale>/subscription.json), the code itself when it has none. */
const mixTypeName = (locale: string, mixType: string) =>
  textsIn(locale, 'subscription')(`mixType.${mixType}`, { defaultValue: mixType });

/**
 * Writes the state a lifecycle transition returned (engine/domain/lifecycle.ts): the subscription's
 * status, end, last issue, cancellability, mix type and planned changes; the cancellation row;
 * the offer acceptances. Only what differs from `before` is written. The one place these are
 * written: every flow goes through the model and then through here.
 */
export async function saveLifecycle(
  db: Queryable,
  tenantId: string,
  id: string,
  before: LifecycleState & { acceptances: readonly StoredAcceptance[] },
  after: LifecycleState & { acceptances: readonly StoredAcceptance[] },
  context: LifecycleWriteContext,
): Promise<void> {
  const details: Record<string, unknown> = {};
  if (after.isCancelable !== before.isCancelable) details.isCancelable = after.isCancelable;
  if (after.end !== before.end || after.endIssue !== before.endIssue) {
    // The end in words is the order system's; once the portal moves the end the screens word it
    // from the date and the issue in their own language (engine/account/labels.ts expiryLabel).
    const renewal = await renewalWithEnd(db, tenantId, id, after.endIssue);
    if (renewal) details.renewal = renewal;
  }
  // A period an offer paid for moved the next automatic payment past it (engine/domain/lifecycle.ts
  // paidFor): the portal's word on top of the order system's plan, until its next sync.
  if (after.nextPayment && after.nextPayment.day !== before.nextPayment?.day) {
    const renewal = (details.renewal as Renewal | undefined) ?? (await storedRenewal(db, tenantId, id));
    if (renewal) details.renewal = { ...renewal, autoRenewalNextPaymentDate: after.nextPayment.day };
  }
  if (after.plannedUpgrade !== before.plannedUpgrade) {
    details.plannedUpgrade = after.plannedUpgrade && {
      ...after.plannedUpgrade,
      mixTypeDesc: mixTypeName(context.locale, after.plannedUpgrade.mixType),
    };
  }
  if (after.retention !== before.retention) details.retentionOffer = after.retention;
  if (after.phaseUpgradable !== before.phaseUpgradable)
    details.currentPhase = { canUpgrade: after.phaseUpgradable };
  if (after.suspension !== before.suspension) {
    details.currentSuspension = after.suspension && {
      suspendedFromDate: after.suspension.from,
      suspendedToDate: after.suspension.to,
    };
  }
  let translations: Record<string, Record<string, unknown>> | null = null;
  if (after.mixType !== before.mixType) {
    await keepNameBefore(db, tenantId, id, after);
    const changed = await mixTypeDetails(db, tenantId, id, after, context.locale);
    translations = changed.translations as Record<string, Record<string, unknown>>;
    Object.assign(details, changed.fields);
  }
  // The write below drops the translations of every key it writes; of the renewal, whose end or next
  // payment the portal moved, the words of what it did not move stay the order system's in every
  // language (the last payment's frequency, the offer's description).
  if (details.renewal) {
    const kept = await unchangedRenewalTranslations(db, tenantId, id, details.renewal as Renewal);
    for (const [locale, words] of Object.entries(kept))
      translations = { ...translations, [locale]: { ...translations?.[locale], renewal: words } };
  }
  await updateSubscription(db, tenantId, id, {
    orderStatus: after.status !== before.status ? after.status : undefined,
    validTo: after.end !== before.end ? after.end : undefined,
    mixType: after.mixType !== before.mixType ? after.mixType : undefined,
    details,
  });
  if (translations) {
    // Merged per language after the write above, which drops the stored translations of the keys it writes.
    await db.query(
      `update subscriptions
          set details = jsonb_set(details, '{translations}', coalesce(details->'translations', '{}'::jsonb) || (
                select jsonb_object_agg(e.key, coalesce(details->'translations'->e.key, '{}'::jsonb) || e.value) from jsonb_each($3::jsonb) e))
        where tenant_id = $1 and id = $2`,
      [tenantId, id, JSON.stringify(translations)],
    );
  }

  if (after.cancellation && !before.cancellation) {
    const words = context.cancellation ?? { reason: '', reasonText: null, feedback: null };
    await db.query(
      `insert into cancellations (tenant_id, subscription_id, user_id, reason, reason_text, feedback, type, issue_number, effective_date)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        tenantId,
        id,
        context.userId,
        words.reason,
        words.reasonText,
        words.feedback,
        after.cancellation.type,
        after.cancellation.issueNumber,
        after.cancellation.effectiveDate,
      ],
    );
  } else if (!after.cancellation && before.cancellation) {
    // A renewal revoked it: the subscription may be cancelled again later.
    await db.query(`delete from cancellations where tenant_id = $1 and subscription_id = $2`, [tenantId, id]);
  }

  for (const acceptance of after.acceptances as readonly StoredAcceptance[]) {
    const old = acceptance.id
      ? (before.acceptances as readonly StoredAcceptance[]).find((a) => a.id === acceptance.id)
      : undefined;
    if (!acceptance.id) {
      await db.query(
        // paid_amount: the offer's share of its payment, refunded if the order system rejects it
        // (migration 042): its price when paid online, as the payment was made (offerKit startPayment).
        `insert into offer_acceptances (tenant_id, subscription_id, offer_id, user_id, source, upgrade_time, cancel_reason, status, payment_id, applied_at, paid_amount)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, case when $8 = 'applied' then now() end,
                 case when $9::text is not null then
                   (select case when o.payment_provider in ('CREDIT_CARD', 'PAYPAL') then o.price else 0 end
                      from offers o where o.tenant_id = $1 and o.id = $3) end)`,
        [
          tenantId,
          id,
          acceptance.offerId,
          context.userId,
          acceptance.source,
          acceptance.upgradeTime,
          context.cancelReason ?? null,
          acceptance.status,
          acceptance.paymentId,
        ],
      );
    } else if (old && old.status !== acceptance.status) {
      await db.query(
        `update offer_acceptances set status = $3, applied_at = case when $3 = 'applied' then now() else applied_at end where tenant_id = $1 and id = $2`,
        [tenantId, acceptance.id, acceptance.status],
      );
    }
  }
}

/** Per language, the translated words of the stored renewal's fields that `next` leaves as they are. */
async function unchangedRenewalTranslations(
  db: Queryable,
  tenantId: string,
  id: string,
  next: Renewal,
): Promise<Record<string, Record<string, unknown>>> {
  const [row] = await db.query<{
    renewal: Record<string, unknown> | null;
    translations: Record<string, { renewal?: Record<string, unknown> } | null> | null;
  }>(
    `select details->'renewal' as renewal, details->'translations' as translations
       from subscriptions where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  const kept: Record<string, Record<string, unknown>> = {};
  const stored = row?.renewal ?? {};
  const same = (key: string) =>
    JSON.stringify(stored[key] ?? null) ===
    JSON.stringify((next as unknown as Record<string, unknown>)[key] ?? null);
  for (const [locale, words] of Object.entries(row?.translations ?? {})) {
    const unchanged = Object.fromEntries(Object.entries(words?.renewal ?? {}).filter(([key]) => same(key)));
    if (Object.keys(unchanged).length > 0) kept[locale] = unchanged;
  }
  return kept;
}

async function renewalWithEnd(
  db: Queryable,
  tenantId: string,
  id: string,
  endIssue: string | null,
): Promise<Renewal | null> {
  // Without renewal data (not a renewal subscription) the end is its date alone; nothing to word.
  const renewal = await storedRenewal(db, tenantId, id);
  return renewal ? { ...renewal, expiryIssueNr: endIssue, expiryDesc: null } : null;
}

/** The subscription's renewal data as stored (the order system's, with the portal's changes). */
async function storedRenewal(db: Queryable, tenantId: string, id: string): Promise<Renewal | null> {
  const rows = await db.query<{ renewal: Renewal | null }>(
    `select details->'renewal' as renewal from subscriptions where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  return rows[0]?.renewal ?? null;
}

/**
 * Keeps the subscription's name, in every language, before a format change that applied now (an
 * upgrade, a bundle's renewal) renames it (migration 041): an invoice issued before that day names
 * what it was issued for (nameOnDay, docs/invoices.md "The product an invoice names").
 */
async function keepNameBefore(
  db: Queryable,
  tenantId: string,
  id: string,
  after: LifecycleState,
): Promise<void> {
  const upgrade = [...after.acceptances]
    .reverse()
    .find((a) => a.status === 'applied' && formatOf(a.effect) !== null);
  if (!upgrade) return;
  await db.query(
    `insert into subscription_names_before (tenant_id, subscription_id, replaced_on, display_name, translations)
     select s.tenant_id, s.id, $3::date, s.details->>'displayName',
            (select jsonb_object_agg(t.key, jsonb_build_object('displayName', t.value->'displayName'))
               from jsonb_each(case when jsonb_typeof(s.details->'translations') = 'object'
                                    then s.details->'translations' else '{}'::jsonb end) t
              where jsonb_typeof(t.value) = 'object' and t.value ? 'displayName')
       from subscriptions s where s.tenant_id = $1 and s.id = $2`,
    [tenantId, id, upgrade.on],
  );
}

/**
 * The subscription's name on `day` in `locale`, where the portal renamed it since (keepNameBefore);
 * null when the name it has now is the one of that day.
 */
export async function nameOnDay(
  db: Queryable,
  tenantId: string,
  id: string,
  day: string,
  locale: string,
): Promise<string | null> {
  const [row] = await db.query<{
    displayName: string | null;
    translations: Translations<{ displayName: string }> | null;
  }>(
    `select display_name as "displayName", translations from subscription_names_before
      where tenant_id = $1 and subscription_id = $2 and replaced_on > $3::date
      order by replaced_on, id limit 1`,
    [tenantId, id, day],
  );
  if (!row?.displayName) return null;
  return localizedDetails({ displayName: row.displayName, translations: row.translations }, locale)
    .displayName;
}

/** What a new mix type means for the rest of the subscription's fields (an upgrade that applied now). */
async function mixTypeDetails(
  db: Queryable,
  tenantId: string,
  id: string,
  after: LifecycleState,
  locale: string,
): Promise<{ fields: Record<string, unknown>; translations: Record<string, unknown> }> {
  const rows = await db.query<{
    publicationName: string | null;
    mixTypeDetails: SubscriptionDetails['mixTypeDetails'] | null;
  }>(
    `select p.description as "publicationName", s.details->'mixTypeDetails' as "mixTypeDetails"
       from subscriptions s left join publications p on p.tenant_id = s.tenant_id and p.publication = s.publication
      where s.tenant_id = $1 and s.id = $2`,
    [tenantId, id],
  );
  const mixType = after.mixType;
  const upgrade = [...after.acceptances]
    .reverse()
    .find((a) => a.status === 'applied' && formatOf(a.effect) !== null);
  const publicationName = rows[0]?.publicationName ?? '';
  const name = (locale: string) => `${publicationName} – ${mixTypeName(locale, mixType)}`;
  // The product's name in every language, so no screen shows another's words.
  const translations = Object.fromEntries(
    LOCALES.map((l) => [
      l,
      { displayName: name(l), mixTypeDetails: { mixTypeDesc: mixTypeName(l, mixType) } },
    ]),
  );
  const fields = {
    // The product key of the format, as the offer that gave it names it.
    ...(upgrade &&
      'typeKey' in upgrade.effect &&
      upgrade.effect.typeKey && { typeKey: upgrade.effect.typeKey }),
    displayName: name(locale),
    mixTypeDetails: {
      ...rows[0]?.mixTypeDetails,
      mixTypeDesc: mixTypeName(locale, mixType),
      mediumType: mixType === 'PR' ? null : mixType,
      pdfDownload: mixType === 'DE' || mixType === 'KO',
      complaintIssues: mixType === 'PR' || mixType === 'KO' ? 3 : 0,
    },
    isCombiSubscription: mixType === 'KO',
    isTimebased: mixType === 'ON',
  };
  return { fields, translations };
}

/**
 * The components of a bundle besides its master (renewal.renewalBundleComponent S, with its bundle
 * number) that the user orders (AG), in id order. Which subscriptions they are is the master's to
 * say: the order numbers its order system lists (`details.bundles[].bundleOrderNumber`), which may
 * lie in another order-system client (a print title and its digital edition kept in clients of
 * their own); a master without that list, only its own client's, since a bundle number is one
 * client's numbering.
 */
export async function bundleComponentsOf(
  db: Queryable,
  tenantId: string,
  userId: string,
  master: { id: string; bundleNumber: string },
): Promise<Array<{ id: string; orderNumber: string }>> {
  return db.query<{ id: string; orderNumber: string }>(
    `select s.id, s.order_number as "orderNumber"
       from subscriptions s
       join subscriptions m on m.tenant_id = s.tenant_id and m.id = $3
      where s.tenant_id = $1 and s.bundle_number = $2 and s.id <> m.id
        and s.details->'renewal'->>'renewalBundleComponent' = 'S'
        and case when jsonb_typeof(m.details->'bundles') = 'array' and jsonb_array_length(m.details->'bundles') > 0
                 then s.order_number::text in (select b->>'bundleOrderNumber' from jsonb_array_elements(m.details->'bundles') b)
                 else s.client_id = m.client_id end
        and exists (select 1 from subscription_roles r
                      join user_business_partners u on u.tenant_id = r.tenant_id and u.bp_number = r.bp_number
                     where r.tenant_id = s.tenant_id and r.subscription_id = s.id and r.role = 'AG'
                       and u.user_id = $4)
      order by s.id`,
    [tenantId, master.bundleNumber, master.id, userId],
  );
}

/**
 * One lifecycle change: loads the state (the caller holds the subscription's row lock), runs the
 * transition, writes what it returned. A refusal writes nothing and is returned for the caller to
 * answer (server/tenancy/refusals.ts `refusedTransition`).
 */
export async function changeLifecycle(
  db: Queryable,
  tenantId: string,
  id: string,
  transition: (state: LifecycleState) => Transition,
  context: LifecycleWriteContext,
): Promise<Transition> {
  const before = await loadLifecycle(db, tenantId, id);
  if (!before) return { ok: false, refusal: 'inactive' };
  const result = transition(before);
  if (result.ok) await saveLifecycle(db, tenantId, id, before, result.state, context);
  return result;
}

/**
 * Fails the acceptances still waiting for these payments, whichever subscription they are for: a
 * payment cancelled with the subscription it was voided by (engine/domain/lifecycle.ts cancel) paid
 * for nothing, including the other subscriptions of a bulk renewal. loadLifecycle reads them as
 * failed already; this keeps the rows true, so the offers can be taken again. Answers the
 * subscriptions each payment waited for.
 */
export async function failAcceptancesOfPayments(
  db: Queryable,
  tenantId: string,
  paymentIds: readonly string[],
): Promise<Map<string, string[]>> {
  const bySubscription = new Map<string, string[]>();
  if (paymentIds.length === 0) return bySubscription;
  const rows = await db.query<{ paymentId: string; subscriptionId: string }>(
    `update offer_acceptances set status = 'failed' where tenant_id = $1 and payment_id = any($2::text[]) and status = 'pending'
     returning payment_id as "paymentId", subscription_id as "subscriptionId"`,
    [tenantId, [...paymentIds]],
  );
  for (const row of rows)
    bySubscription.set(row.paymentId, [...(bySubscription.get(row.paymentId) ?? []), row.subscriptionId]);
  return bySubscription;
}

/** The facts the anonymous cancellation check needs before any session exists. */
export async function subscriptionFacts(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<{
  orderNumber: string;
  publication: string;
  orderStatus: OrderStatus;
  salesDocumentType: string | null;
  isCancelable: boolean;
  /** A bundle's component (§2 "Bundle components are not managed separately"). */
  bundleComponent: boolean;
} | null> {
  const rows = await db.query<{
    orderNumber: string;
    publication: string;
    orderStatus: OrderStatus;
    salesDocumentType: string | null;
    isCancelable: boolean | null;
    bundleComponent: boolean;
  }>(
    `select order_number as "orderNumber", publication, order_status as "orderStatus", details->>'salesDocumentType' as "salesDocumentType",
            (details->>'isCancelable')::boolean as "isCancelable",
            coalesce(details->'renewal'->>'renewalBundleComponent' = 'S', false) as "bundleComponent"
       from subscriptions where tenant_id = $1 and id = $2`,
    [tenantId, id],
  );
  return rows[0] ? { ...rows[0], isCancelable: rows[0].isCancelable ?? false } : null;
}

/**
 * Fields the order system keeps in a subscription's details that no screen lists (the minimum
 * term's end, the payment account and a pending payment method change), by name; a field the
 * details do not have is absent. Null when the subscription is not the tenant's.
 */
export async function subscriptionDetailFields(
  db: Queryable,
  tenantId: string,
  id: string,
  fields: readonly string[],
): Promise<Record<string, unknown> | null> {
  const rows = await db.query<{ fields: Record<string, unknown> }>(
    `select coalesce((select jsonb_object_agg(key, value) from jsonb_each(details) where key = any($3::text[])), '{}'::jsonb) as fields
       from subscriptions where tenant_id = $1 and id = $2`,
    [tenantId, id, [...fields]],
  );
  return rows[0]?.fields ?? null;
}
