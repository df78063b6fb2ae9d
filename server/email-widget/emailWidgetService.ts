/**
 * The e-mail widget (account-flows.md §2 "Email widget", §3, §5, §7 POST /link-email). Order number
 * and zip code are knowledge others can have (a neighbour, an old invoice), so the answer never
 * reveals a subscription and never links an address by itself (docs/subscribers.md "E-mail widget"): POST
 * /link-email always answers the same "check your inbox" after the same work (one queued job);
 * the mail sender then looks for the match (emailWidgetMailJobs.ts): only when order number and zip
 * code match a subscription whose address on record is the typed one does that address get a link. Opening
 * the link (the proof) shows the subscription and its rewards, and records the link and the opt-in
 * — once, with the account event `email_widget.linked`.
 */
import type { Database } from '../db/database';
import type { LinkEmailRequest } from '../../schemas/generated/link-email-request';
import type { EmailWidgetResult } from '../../schemas/generated/email-widget-result';
import type { Locale } from '../../engine/domain/locales';
import { emailWidgetProblems, emailWidgetShowsOptIn } from '../../engine/domain/widgets';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import { badRequest, notFound } from '../http/errors';
import { hashToken } from '../auth/tokens';
import { enqueueMailJob } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import {
  findEmailWidgetLink,
  listEmailWidgetRewards,
  markEmailWidgetLinkConfirmed,
  widgetSubscriptionSummary,
} from '../store/widgetStore';
import type { ServerTenant } from '../tenancy/tenantContext';
import { EMAIL_WIDGET_JOB, type EmailWidgetJobInput } from './emailWidgetMailJobs';
import { textsIn } from '../texts/serverTexts';

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function createEmailWidget(deps: { db: Database; mailFrom: string; now: () => Date }) {
  const { db } = deps;

  /** The link's subscription and rewards; the link must not have expired. */
  async function result(
    tenant: ServerTenant,
    token: string,
    locale: Locale,
    confirm: boolean,
  ): Promise<EmailWidgetResult & { subscriptionId: string }> {
    return db.transaction(async (tx) => {
      const now = deps.now();
      const link = await findEmailWidgetLink(tx, tenant.id, hashToken(token), now);
      if (!link) throw notFound('This link has expired. Please fill in the form again.');
      if (confirm && !link.confirmedAt) {
        await markEmailWidgetLinkConfirmed(tx, tenant.id, link.id, now);
        const optIn = link.optIn && emailWidgetShowsOptIn(tenant);
        await recordEvent(tx, tenant.id, 'email_widget.linked', {
          userId: null,
          subscriptionId: link.subscriptionId,
          email: link.email,
          optIn,
        });
      }
      const summary = await widgetSubscriptionSummary(tx, tenant.id, link.subscriptionId);
      if (!summary) throw notFound('This link has expired. Please fill in the form again.');
      const rewards = tenant.emailWidget.showRewards ? await listEmailWidgetRewards(tx, tenant.id) : [];
      return {
        subscriptionId: link.subscriptionId,
        subscription: summary,
        rewards: rewards.map((r) => ({
          key: r.key,
          description: r.description[locale] ?? r.description['en-GB'] ?? r.description['de-DE'] ?? r.key,
          coverImageUrl: r.coverImageUrl,
          download: `/link-email/rewards/${encodeURIComponent(r.key)}?token=${encodeURIComponent(token)}`,
        })),
      };
    });
  }

  return {
    /**
     * POST /link-email: queues the request for the mail sender, which mails the link when
     * everything matches (emailWidgetMailJobs.ts). One insert whatever was typed: the answer and
     * its timing are the same whether or not anything matched.
     */
    async request(
      tenant: ServerTenant,
      body: LinkEmailRequest,
      origin: { portalUrl: string; locale: Locale },
      mailLimit: EmailWidgetJobInput['mailLimit'],
    ): Promise<void> {
      const problems = emailWidgetProblems({
        email: body.email,
        orderNumber: body.orderNumber,
        zipcode: body.zipcode,
      });
      if (Object.keys(problems).length > 0)
        throw badRequest('validation_failed', 'Please check the form.', { fields: problems });
      const input: EmailWidgetJobInput = {
        orderNumber: body.orderNumber,
        zipcode: body.zipcode,
        optIn: Boolean(body.optIn) && emailWidgetShowsOptIn(tenant),
        blacklist: [...(tenant.publicationBlacklists?.['email-widget'] ?? [])],
        mailLimit,
      };
      await enqueueMailJob(db, {
        tenantId: tenant.id,
        kind: EMAIL_WIDGET_JOB,
        payload: {
          email: normalizeEmail(body.email),
          portalUrl: origin.portalUrl,
          locale: origin.locale,
          tenantName: tenant.name,
          from: deps.mailFrom,
          requestedAt: deps.now().toISOString(),
          ...input,
        },
      });
    },

    /** POST /link-email/confirm: the result; the first opening records the link and the opt-in. */
    async confirm(tenant: ServerTenant, token: string, locale: Locale): Promise<EmailWidgetResult> {
      const { subscriptionId: _id, ...answer } = await result(tenant, token, locale, true);
      return answer;
    },

    /** GET /link-email/rewards/{key}?token: the reward file, for the holder of a valid link. */
    async rewardFile(
      tenant: ServerTenant,
      token: string,
      key: string,
      locale: Locale,
    ): Promise<{ fileName: string; content: Buffer }> {
      const found = await result(tenant, token, locale, false);
      const reward = found.rewards.find((r) => r.key === key);
      if (!reward) throw notFound('There is no such reward.');
      const rows = await listEmailWidgetRewards(db, tenant.id);
      const fileName = rows.find((r) => r.key === key)!.fileName;
      const colour = tenant.themeTokens?.colors?.primary ?? '#1d4e89';
      const thanks = textsIn(locale, 'email-widget')('wallpaper.thanks');
      // A self-contained SVG (wallpaper-sized), made for this subscription: no dependency, opens in any browser or viewer.
      const svg =
        `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="900" viewBox="0 0 1600 900">` +
        `<rect width="1600" height="900" fill="${escapeXml(colour)}"/>` +
        `<circle cx="1350" cy="180" r="260" fill="#ffffff" opacity=".08"/><circle cx="220" cy="780" r="320" fill="#ffffff" opacity=".06"/>` +
        `<g font-family="Arial,sans-serif" fill="#ffffff">` +
        `<text x="120" y="200" font-size="56" font-weight="bold">${escapeXml(tenant.name)}</text>` +
        `<text x="120" y="420" font-size="84" font-weight="bold">${escapeXml(reward.description)}</text>` +
        `<text x="120" y="520" font-size="40">${escapeXml(found.subscription.displayName)} · ${escapeXml(found.subscription.orderNumber)}</text>` +
        `<text x="120" y="760" font-size="36" opacity=".85">${escapeXml(thanks)}</text></g></svg>`;
      return { fileName, content: Buffer.from(svg, 'utf8') };
    },
  };
}

export type EmailWidget = ReturnType<typeof createEmailWidget>;
