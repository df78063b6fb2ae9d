/**
 * SQL for the subscriptions a signed-in user may see (portal-core.md §3 "Subscription").
 *
 * Visibility (DESIGN.md "Data and the server"): a user sees a subscription only when one of the
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
import { localizedDetails } from './localizedDetails';

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
  next_issue: Issue | null;
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
               'street', bp.street, 'streetNumber', bp.street_number, 'zipcode', bp.zipcode,
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
               'dateOfFirstShipping', to_char(i.date_of_first_shipping, 'YYYY-MM-DD')) as next_issue
        from issues i
       where i.tenant_id = $1 and i.publication = s.publication
         and i.date_of_first_sale > coalesce($4::date, current_date)
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
  const rows = await db.query<SubscriptionQueryRow>(SELECT_SUBSCRIPTIONS, [tenantId, userId, null, isoDay(opts.today)]);
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
    parties.find((p) => p.bpNumber === current.bpNumber && p.role === current.role) ?? emptyParty(current.bpNumber, current.role);
  const party = (role: Role) => parties.find((p) => p.role === role);
  const goodsRecipient = party('WE');
  const isGoodsRecipient = goodsRecipient !== undefined && row.mine.some((m) => m.role === 'WE' && m.bpNumber === goodsRecipient.bpNumber);

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
    mixTypeDetails: d.mixTypeDetails ?? { mixTypeDesc: row.mix_type, mediumType: null, pdfDownload: false, complaintIssues: 0 },
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
    nextIssue: row.next_issue,
    activeHolidayServiceType: defined(d.activeHolidayServiceType, null),
    orderAttributes: d.orderAttributes ?? [],
    bundle: row.bundle_number ? { bundleNumber: row.bundle_number } : null,
    bundles: d.bundles ?? [],
    currentPhase: defined(d.currentPhase, null),
    currentChangeInfo: defined(d.currentChangeInfo, null),
    currentSuspension: defined(d.currentSuspension, null),
    renewal: d.renewal ? renewalFor(d.renewal, isOrderingParty) : null,
  };

  if (isOrderingParty) {
    if (d.paymentMethod !== undefined) subscription.paymentMethod = d.paymentMethod;
    if (d.subOProcessedPMD) subscription.subOProcessedPMD = { subPaymentMethod: d.subOProcessedPMD.subPaymentMethod ?? null };
    if (d.paymentDetails) subscription.paymentDetails = { paymentMethod: d.paymentDetails.paymentMethod };
    subscription.billingFrequency = defined(d.billingFrequency, null);
    subscription.billingFrequencyShortDescription = defined(d.billingFrequencyShortDescription, null);
    subscription.currentCyclePaidAmount = defined(d.currentCyclePaidAmount, null);
    subscription.currentCycleBundlePaidAmount = defined(d.currentCycleBundlePaidAmount, null);
    subscription.premiumDescription = defined(d.premiumDescription, null);
    // What the offer flows changed for the ordering party (server/offers/applyOffer.ts).
    subscription.plannedUpgrade = d.plannedUpgrade ? { from: d.plannedUpgrade.from, mixTypeDesc: d.plannedUpgrade.mixTypeDesc, mixType: d.plannedUpgrade.mixType } : null;
    subscription.retentionOffer = d.retentionOffer ? { discountPercent: d.retentionOffer.discountPercent, until: d.retentionOffer.until } : null;
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
export async function lockSubscriptionDataVersions(db: Queryable, tenantIds: readonly string[]): Promise<void> {
  if (tenantIds.length < 2) return;
  await db.query(`select 1 from subscription_data_versions where tenant_id = any($1) order by tenant_id for update`, [[...tenantIds]]);
}
