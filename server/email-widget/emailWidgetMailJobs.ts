/**
 * The e-mail widget's request, resolved by the mail sender (the way
 * sign-in requests are, server/auth/signInMailJobs.ts). POST /link-email only
 * queues one job row, whatever was typed, so neither its answer nor its timing tells whether order
 * number, zip code and address match. Here, later and off the request, the match is looked up; only
 * when the typed address is on record for a subscription with that order number and zip code is the
 * link's token written and the mail built — else nothing is sent.
 */
import type { MailJob, MailJobResolver } from '../store/mailQueueStore';
import { DEFAULT_SIGN_IN_LIMITS, mayMailOrderNumberLink, type SignInLimits } from '../auth/rateLimit';
import { EMAIL_WIDGET_LINK_HOURS } from '../../engine/domain/widgets';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import { hashToken, newSecretToken } from '../auth/tokens';
import { langQuery } from '../auth/signInMailJobs';
import { partnersOfOrderNumber } from '../store/partialLoginStore';
import { subscriptionFacts } from '../store/subscriptionStore';
import { insertEmailWidgetLink } from '../store/widgetStore';
import { widgetMail } from './emailWidgetMails';

export const EMAIL_WIDGET_JOB = 'email-widget';

/** What the request knew and the sender needs (besides MailJobBase: email, portalUrl, locale, tenantName, from, requestedAt). */
export interface EmailWidgetJobInput {
  orderNumber: string;
  zipcode: string;
  /** Asked for and offered by the tenant (emailWidgetShowsOptIn), decided by the request. */
  optIn: boolean;
  /** The tenant's publication blacklist of the widget, so the sender applies isFeatureOn per publication. */
  blacklist: string[];
  /** The server's sign-in limits, for the links one mailbox may get (mayMailOrderNumberLink). */
  mailLimit?: Pick<SignInLimits, 'windowSeconds' | 'perAddress'>;
}

const zip = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, '').toLowerCase();

async function resolveEmailWidget(tx: Parameters<MailJobResolver>[0], job: MailJob) {
  const input = job.payload as MailJob['payload'] & EmailWidgetJobInput;
  const email = normalizeEmail(input.email);
  const switches = {
    features: ['email-widget' as const],
    publicationBlacklists: { 'email-widget': input.blacklist ?? [] },
  };
  const partners = (await partnersOfOrderNumber(tx, job.tenantId, input.orderNumber)).filter(
    (p) => zip(p.zipcode) === zip(input.zipcode),
  );
  for (const subscriptionId of new Set(partners.map((p) => p.subscriptionId))) {
    const proved = partners.filter((p) => p.subscriptionId === subscriptionId);
    // An address on record of the subscription: a partner's own, or the account that speaks for one. The link goes
    // only there, so whoever opens it has proved they read that mailbox.
    const onRecord = new Set(
      proved
        .flatMap((p) => [p.email, p.accountEmail])
        .filter((e): e is string => Boolean(e?.trim()))
        .map(normalizeEmail),
    );
    if (!onRecord.has(email)) continue;
    const facts = await subscriptionFacts(tx, job.tenantId, subscriptionId);
    if (!facts || !isFeatureOn(switches, 'email-widget', facts.publication)) continue;
    const allowed = await mayMailOrderNumberLink(
      tx,
      job.tenantId,
      input.mailLimit ?? DEFAULT_SIGN_IN_LIMITS,
      input.orderNumber,
      email,
      new Date(input.requestedAt),
    );
    if (!allowed) return null;
    const token = newSecretToken();
    await insertEmailWidgetLink(tx, {
      tenantId: job.tenantId,
      subscriptionId,
      email,
      optIn: Boolean(input.optIn),
      locale: input.locale,
      tokenHash: hashToken(token),
      // Valid from the request on, however late the sender runs.
      expiresAt: new Date(new Date(input.requestedAt).getTime() + EMAIL_WIDGET_LINK_HOURS * 3_600_000),
    });
    const link = `${input.portalUrl}email-widget?token=${encodeURIComponent(token)}${langQuery(input.locale)}`;
    const mail = widgetMail('emailWidgetLink', input.locale, {
      tenant: input.tenantName,
      orderNumber: input.orderNumber,
      link,
      hours: String(EMAIL_WIDGET_LINK_HOURS),
    });
    return { tenantId: job.tenantId, to: email, from: input.from, ...mail };
  }
  return null;
}

export const EMAIL_WIDGET_MAIL_JOBS: Record<typeof EMAIL_WIDGET_JOB, MailJobResolver> = {
  [EMAIL_WIDGET_JOB]: resolveEmailWidget,
};
