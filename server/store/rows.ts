/**
 * Shapes the stores read and write. API shapes come from `schemas/api/*.schema.json`, the single
 * source of shapes (CONVENTIONS.md rule 4), through the types generated into `schemas/generated/`;
 * tests/server/store/subscriptionStore.int.test.ts also validates the store's output against the
 * schema at run time. The jsonb `details` shapes below are the database's own.
 */

/** A string of an event's data (jsonb), else null: what a rejection takes back is read from it. */
export const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Business partner roles in display precedence, portal-core.md §6. */
export const ROLES: readonly Role[] = ['AG', 'WE', 'RE', 'LV'];

/** Order statuses, portal-core.md §4. */
export type OrderStatusCode = Subscription['orderStatus'];

export type HolidayServiceType = 'redirect' | 'break' | 'download';

export type PaymentMethodKind = 'credit_card' | 'sepa' | 'direct_debit' | 'paypal' | 'invoice' | 'none';

/** Download statuses of delivered issues and purchase orders, portal-core.md §4. */
export type DownloadStatus = 'unknown' | 'not_supported' | 'not_found' | 'found' | 'expired';

/** Payment history codes: U unknown, A paid, T partially paid, O unpaid (portal-core.md §3). */
export type InvoiceStatusCode = 'U' | 'A' | 'T' | 'O';

// ---------------------------------------------------------------------------------------------
// API shapes: generated from schemas/api/subscription.schema.json by scripts/generateTypes.ts
// ---------------------------------------------------------------------------------------------

import type {
  BusinessPartnerRole,
  BusinessPartnerSummary,
  Issue,
  MixTypeDetails,
  Renewal,
  Role,
  Subscription,
} from '../../schemas/generated/subscription';
import type { BusinessPartner } from '../../schemas/generated/business-partner';
import type { Translations } from './localizedDetails';

export type {
  BusinessPartnerRole,
  BusinessPartnerSummary,
  Issue,
  MixTypeDetails,
  Renewal,
  Role,
  Subscription,
};

// ---------------------------------------------------------------------------------------------
// Database: jsonb `details` columns (camelCase, as in the API) and rows
// ---------------------------------------------------------------------------------------------

/** `subscriptions.details`: the §3 subscription fields that are not columns. All optional. */
export interface SubscriptionDetails {
  displayName?: string;
  typeKey?: string | null;
  edition?: string | null;
  mixTypeDetails?: Partial<MixTypeDetails>;
  custOrderNumber?: string | null;
  isRenewal?: boolean;
  isTimebased?: boolean;
  isMultiLicense?: boolean;
  isCombiSubscription?: boolean;
  isCancelable?: boolean;
  paymentMethod?: string;
  subOProcessedPMD?: { subPaymentMethod: string | null };
  paymentDetails?: { paymentMethod: PaymentMethodKind };
  billingFrequency?: string | null;
  billingFrequencyShortDescription?: string | null;
  currentCyclePaidAmount?: number | null;
  currentCycleBundlePaidAmount?: number | null;
  premiumDescription?: string | null;
  salesDocumentType?: string | null;
  salesSource?: string | null;
  salesOrganization?: string | null;
  prSourceVar?: string | null;
  activeHolidayServiceType?: HolidayServiceType | null;
  orderAttributes?: Array<{ type: string; value: string }>;
  bundles?: Array<{ bundleOrderNumber: string }>;
  currentPhase?: { canUpgrade: boolean } | null;
  currentChangeInfo?: { futureMixTypeToIssueNr: string } | null;
  currentSuspension?: { suspendedFromDate: string; suspendedToDate: string | null } | null;
  renewal?: Renewal | null;
  /** End of the minimum term: before it only an extraordinary termination is possible (account-flows.md §4). */
  minimumTermEnd?: string | null;
  /** Set by the offer flows (server/offers/applyOffer.ts). */
  lastRenewal?: { offerId: string; on: string; until: string };
  plannedUpgrade?: { offerId: string; mixType: string; mixTypeDesc: string; from: string } | null;
  retentionOffer?: { offerId: string; discountPercent: number; until: string };
  /** A payment method change waiting for the end of the payment period (server/payment-method-change/). */
  pendingPaymentMethod?: {
    paymentMethod: PaymentMethodKind;
    effectiveFrom: string;
    account: Record<string, unknown> | null;
  } | null;
  /** A change the due-changes job could not apply (left for a person to look at). */
  failedPaymentMethodChange?: Record<string, unknown>;
  /** The account of the current method, masked. */
  paymentAccount?: Record<string, unknown> | null;
  /** The prose above in other languages (server/store/localizedDetails.ts). */
  translations?: Translations<SubscriptionDetails>;
}

/** `business_partners.details`: the §3 business-partner fields that are not columns (schemas/api/business-partner.schema.json). */
export type BusinessPartnerDetails = Partial<
  Pick<
    BusinessPartner,
    | 'salutation'
    | 'title'
    | 'titleAcademic'
    | 'titleCodeAcademic'
    | 'lastName2'
    | 'company2'
    | 'jobTitle'
    | 'department'
    | 'streetSuffix'
    | 'streetNumberSuffix'
    | 'addressLine1'
    | 'addressLine2'
    | 'addressLine3'
    | 'validFrom'
    | 'validTo'
    | 'info'
    | 'listOfCommunication'
    | 'bpHolidayAddress'
    | 'status'
    | 'reactivatable'
    | 'confirmed'
    | 'invitationAccepted'
    | 'academicYear'
  >
>;

/** PackageInfo of a purchase order (§3): scanStatus '' pending, '90' shipped; versWeg provider code (§9). */
export interface PackageInfo {
  scanStatus: string;
  versWeg: string | null;
  consignmentNumber: string | null;
  deliveryDate: string | null;
}

/** `purchase_orders.details`. */
export interface PurchaseOrderDetails {
  purchaseOrderId?: string;
  reason?: string | null;
  /** The invoiced amount; 0 makes an invoice request not_relevant (portal-core.md §4). */
  invoiceAmount?: number;
}

/** A `users` row in camelCase. `passwordHash` never leaves the server. */
export interface UserRecord {
  id: string;
  tenantId: string;
  email: string;
  displayName: string | null;
  firstName: string | null;
  lastName: string | null;
  passwordHash: string | null;
  ssoId: string | null;
  createdAt: Date;
}
