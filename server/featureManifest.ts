/**
 * A server feature's manifest: what one folder under server/ adds to the portal, declared in its own
 * `manifest.ts` next to the code, the server's counterpart of engine/features/<id>/index.ts
 * (docs/architecture.md "A feature declared once, on both sides"). server/features.ts lists the
 * manifests once; the central lists are derived from that list here: the API routers in their
 * mount order (server/apiRoutes.ts), the background jobs (server/main.ts), the mail job resolvers
 * (server/mail/mailSender.ts) and the personal-data catalogue (server/privacy/catalogue.ts).
 */
import type { Router } from 'express';
import type { Database, Queryable } from './db/database';
import type { AuthService } from './auth/authService';
import type { OAuthLogin } from './auth/oauthLogin';
import type { SignInLimits } from './auth/rateLimit';
import type { Mailer } from './mail/mailer';
import type { Logger } from './http/requestLog';
import type { MailJobResolver } from './store/mailQueueStore';
import type { PersonalDataManifest } from './privacy/personalDataTypes';
import type { AccountEventType } from './events/eventTypes';
import type { InvoiceRequests } from './account/invoiceRequests';
import type { OfferService } from './offers/offerService';
import type { CancellationService } from './cancellation/cancellationService';
import type { PaymentMethodChange } from './payment-method-change/paymentMethodChangeService';
import type { PaymentProvider, SettlePayment } from './payments/paymentProvider';
import type { ServerTenant } from './tenancy/tenantContext';
import { gatedSlice, type ApiSlice } from './tenancy/apiSlice';

/** What every API router gets: the database, auth, the mailer and the log. */
export interface ApiDeps {
  db: Database;
  auth: AuthService;
  mailer: Mailer;
  mailFrom: string;
  log: Logger;
  now: () => Date;
  /** `development` only under `portal dev`: enables the development login. */
  mode: 'production' | 'development';
  oauth: OAuthLogin;
  signInLimits?: SignInLimits;
}

/**
 * The services several features' routers use, built once in server/apiRoutes.ts and handed to every
 * manifest: a feature takes another's service from here instead of importing its folder (features
 * never import each other, docs/architecture.md "Layers"), and one instance serves every router
 * (one invoice-request service behind the subscription page and the purchase orders, one offer
 * service behind renewal, cancellation and the offers, one set of payment providers).
 */
export interface SharedServices {
  invoiceRequests: InvoiceRequests;
  offers: OfferService;
  cancellations: CancellationService;
  paymentMethods: PaymentMethodChange;
  /** The payment providers a tenant may choose (`payments.provider`, docs/architecture.md "Payments"). */
  providers: ReadonlyMap<string, PaymentProvider>;
  /** Settles a payment by what it pays for (the providers' reports and routes settle through this). */
  settle: SettlePayment;
}

/**
 * One router a feature mounts under each tenant's /api. `slice`: one switchable feature's routes,
 * mounted behind gatedSlice (server/tenancy/apiSlice.ts, portal-core.md §6): 403 feature_disabled
 * while none of the feature's flags is on. `router`: routes that ask in their handlers (shared by
 * several features, switched per publication, sign-in routes); the manifest says why.
 *
 * A router goes where its feature stands in server/features.ts, after the feature's routers before
 * it, unless it names an anchor: `before` another feature (mounted just before that feature's first
 * router) or `after` one (just after its last); only where the order of the paths needs it, with
 * the reason beside it.
 */
export type FeatureRouter = ({ slice: ApiSlice } | { router: Router }) & {
  before?: string;
  after?: string;
};

/** What the server's background jobs get from server/main.ts. */
export interface JobDeps {
  db: Database;
  tenants: readonly ServerTenant[];
  log: Logger;
  /** The sender of the mails a job queues. */
  mailFrom: string;
}

/**
 * What a feature's own tables undo when the order system rejects one of its changes (the change
 * feed, docs/going-live.md "4. The change feed"), in the rejection's transaction with the change's
 * event data. The order system's records come back through their overlays; rows the portal keeps
 * for itself (a planned holiday service, an offer's acceptance, a pending opt-in) come back here.
 * True when it found something to take back: the subscriber is then told the account shows the
 * previous details again.
 */
export type ChangeRejection = (tx: Queryable, change: RejectedChange) => Promise<boolean>;

/** The rejected change as its event recorded it: the tenant, the event's data and when it was made. */
export interface RejectedChange {
  tenantId: string;
  /** The change's account event: what the rejection makes due (a refund) names it. */
  eventId: string;
  data: Record<string, unknown>;
  /**
   * The event's time to the microsecond, as PostgreSQL keeps it: the rows the change wrote in its
   * transaction carry exactly this time (now()), a later change's never do.
   */
  at: string;
}

/** A background job a feature runs on every instance; `start` returns a stop that awaits a running round. */
export interface FeatureJob {
  name: string;
  start(deps: JobDeps): () => Promise<void>;
}

export interface FeatureManifest {
  /**
   * The feature's id: the name of its folder under server/, the same as engine/features/<id>/ where
   * the engine has the feature (tests/server/features/featureManifests.test.ts holds both).
   */
  id: string;
  /** The routers it mounts under /api, in order. */
  routers?: (deps: ApiDeps, shared: SharedServices) => readonly FeatureRouter[];
  /** Background jobs, started in list order by server/main.ts. */
  jobs?: readonly FeatureJob[];
  /** The mail job kinds it queues (server/store/mailQueueStore.ts) and what resolves each into a mail. */
  mailJobs?: Readonly<Partial<Record<string, MailJobResolver>>>;
  /** The personal data its tables hold (its personalData.ts; docs/subscribers.md "Download my data"). */
  personalData?: PersonalDataManifest;
  /**
   * The account event types its code records (server/events/eventTypes.ts keeps the list, from the
   * schemas). Every type is declared by at least one feature, and a folder's `recordEvent` calls
   * name only the types its manifest declares; a type several flows record (payment.settled) is
   * declared by each of them.
   */
  events?: readonly AccountEventType[];
  /** What its own tables undo when the order system rejects a change of one of its event types. */
  rejections?: Readonly<Partial<Record<AccountEventType, ChangeRejection>>>;
}

const inPlace = (entry: FeatureRouter) => entry.before === undefined && entry.after === undefined;

/**
 * The features' routers in mount order, each with its feature: list order, a feature's routers in
 * its own order, anchored ones beside their anchor. An anchor that names no feature with routers
 * of its own fails when the API is built, naming it.
 */
export function featureRouters(
  features: readonly FeatureManifest[],
  deps: ApiDeps,
  shared: SharedServices,
): Array<{ feature: string; gated: boolean; router: Router }> {
  const declared = features.map((feature) => ({
    feature: feature.id,
    entries: feature.routers?.(deps, shared) ?? [],
  }));
  const anchored = declared.flatMap(({ feature, entries }) =>
    entries.filter((entry) => !inPlace(entry)).map((entry) => ({ feature, entry })),
  );
  for (const { feature, entry } of anchored) {
    const anchor = entry.before ?? entry.after;
    if (!declared.some((other) => other.feature === anchor && other.entries.some(inPlace)))
      throw new Error(
        `a router of "${feature}" is anchored to "${anchor}", which mounts no router of its own`,
      );
  }
  const ordered: Array<{ feature: string; entry: FeatureRouter }> = [];
  for (const { feature, entries } of declared) {
    const own = entries.filter(inPlace);
    if (own.length === 0) continue;
    ordered.push(...anchored.filter(({ entry }) => entry.before === feature));
    ordered.push(...own.map((entry) => ({ feature, entry })));
    ordered.push(...anchored.filter(({ entry }) => entry.after === feature));
  }
  return ordered.map(({ feature, entry }) =>
    'slice' in entry
      ? { feature, gated: true, router: gatedSlice(entry.slice) }
      : { feature, gated: false, router: entry.router },
  );
}

/** Every feature's jobs, in list order. */
export const featureJobs = (features: readonly FeatureManifest[]): FeatureJob[] =>
  features.flatMap((feature) => feature.jobs ?? []);

/** Every mail job kind with its resolver; a kind two features claim fails, naming both. */
export function featureMailJobs(
  features: readonly FeatureManifest[],
): Partial<Record<string, MailJobResolver>> {
  const resolvers: Partial<Record<string, MailJobResolver>> = {};
  const owners = new Map<string, string>();
  for (const feature of features)
    for (const [kind, resolver] of Object.entries(feature.mailJobs ?? {})) {
      const earlier = owners.get(kind);
      if (earlier !== undefined)
        throw new Error(`mail job "${kind}" is declared by "${earlier}" and "${feature.id}"`);
      owners.set(kind, feature.id);
      resolvers[kind] = resolver;
    }
  return resolvers;
}

/** Every feature's undo for a rejected change, per event type, in list order. */
export function featureRejections(features: readonly FeatureManifest[]): Map<string, ChangeRejection[]> {
  const byType = new Map<string, ChangeRejection[]>();
  for (const feature of features)
    for (const [type, rejection] of Object.entries(feature.rejections ?? {}))
      if (rejection) byType.set(type, [...(byType.get(type) ?? []), rejection]);
  return byType;
}

/** The personal-data manifests of the features that keep personal data, in list order. */
export const featurePersonalData = (features: readonly FeatureManifest[]): PersonalDataManifest[] =>
  features.flatMap((feature) => (feature.personalData ? [feature.personalData] : []));
