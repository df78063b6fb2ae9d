/**
 * E-cards (account-flows.md §2 "E-card", §3, §5, §7 POST /e-cards, §9 "E-card earliest send: one day
 * ahead"; portal-core.md §6 "e-card: never by this rule set (gated by tenant)"). Only signed-in users
 * send cards; the server checks the tenant's flag (per publication when sent from a subscription,
 * which must be the user's), the template, the fields and the daily cap — the rules of
 * engine/domain/eCard.ts the screen uses — and then, in one transaction: the card row, its account
 * event and, for "now", its e-mail in the queue. A timed card waits for the e-card job
 * (server/jobs/eCards.ts).
 */
import type { Database, Queryable } from '../db/database';
import type { ECardRequest } from '../../schemas/generated/e-card-request';
import type { ECardAnswer } from '../../schemas/generated/e-card-answer';
import type { ECardList } from '../../schemas/generated/e-card-list';
import { ECARD_DAILY_CAP, eCardProblems, withinDailyCap } from '../../engine/domain/eCard';
import { waitInEnglish } from '../../engine/domain/retryAfter';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import { HttpError, badRequest, notFound } from '../http/errors';
import { recordEvent } from '../events/recordEvent';
import { enqueueMail } from '../store/mailQueueStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import {
  cancelScheduledECard,
  countECardsSince,
  eCardCreatedAtSince,
  findECard,
  insertECard,
  listScheduledECards,
  lockUserForECards,
  markECardSent,
  type ECardRow,
} from '../store/eCardStore';
import { refuse, requireCapability } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { AccountCaller } from '../account/accountContext';
import { readECardImage } from './eCardImages';
import { eCardMail } from './eCardMail';

export interface ECardDeps {
  db: Database;
  mailFrom: string;
  now: () => Date;
  /** Folder of the tenants' asset folders (tests); default tenants/assets. */
  assetsDir?: string;
}

/** Queues the card's e-mail and marks it sent, in the caller's transaction; records `e_card.sent`. */
export async function sendECard(
  tx: Queryable,
  tenant: ServerTenant,
  card: ECardRow,
  deps: Pick<ECardDeps, 'mailFrom' | 'assetsDir'>,
  at: Date,
): Promise<void> {
  const template = tenant.eCard.templates.find((t) => t.name === card.templateName);
  const image = template
    ? await readECardImage(tenant.id, template.previewImageUrl, deps.assetsDir)
    : undefined;
  const imageUrl =
    template && /^https:\/\//.test(template.previewImageUrl) ? template.previewImageUrl : undefined;
  await enqueueMail(
    tx,
    eCardMail({
      tenantId: tenant.id,
      tenantName: tenant.name,
      from: card.fromName,
      mailFrom: deps.mailFrom,
      locale: card.locale,
      card,
      image,
      imageUrl,
    }),
  );
  await markECardSent(tx, tenant.id, card.id, at);
  await recordEvent(tx, tenant.id, 'e_card.sent', {
    userId: card.userId,
    eCardId: card.id,
    subscriptionId: card.subscriptionId,
    template: card.templateName,
    sendAt: new Date(card.sendAt).toISOString(),
  });
}

export function createECards(deps: ECardDeps) {
  const { db } = deps;
  return {
    async create(caller: AccountCaller, body: ECardRequest): Promise<ECardAnswer> {
      const { tenant, user } = caller;
      const now = deps.now();
      return db.transaction(async (tx) => {
        // portal-core.md §6: the e-card is gated by the tenant only — its flag where the slice is
        // mounted (eCardSlice), and per publication when sent from a subscription.
        let subscriptionId: string | null = null;
        if (body.subscriptionId) {
          const s = await getSubscriptionForUser(tx, tenant.id, user.id, body.subscriptionId);
          if (!s) throw refuse.notYours('There is no such subscription on your account.');
          requireCapability('eCard', s, tenant);
          subscriptionId = s.id;
        }
        const timing = body.sendAt === null ? 'now' : 'timed';
        const problems = eCardProblems(
          {
            template: body.template.name,
            from: body.from,
            to: body.to,
            toEmail: body.toEmail,
            message: body.message,
            timing,
            sendAt: body.sendAt,
          },
          tenant.eCard.templates,
          now,
        );
        if (Object.keys(problems).length > 0)
          throw badRequest('validation_failed', 'The e-card is not complete.', { fields: problems });
        // Abuse limit: a per-user cap in any 24 hours, checked under a lock on the user so parallel requests cannot overshoot it.
        await lockUserForECards(tx, tenant.id, user.id);
        const recent = await countECardsSince(tx, tenant.id, user.id, new Date(now.getTime() - 86_400_000));
        if (!withinDailyCap(recent)) {
          // Every 429 says when to try again: when the card that frees a place leaves the 24 hours.
          const since = new Date(now.getTime() - 86_400_000);
          const freeing = await eCardCreatedAtSince(
            tx,
            tenant.id,
            user.id,
            since,
            recent - ECARD_DAILY_CAP + 1,
          );
          const retryAfterSeconds = Math.max(
            60,
            Math.ceil(((freeing?.getTime() ?? now.getTime()) + 86_400_000 - now.getTime()) / 1000),
          );
          throw new HttpError(
            429,
            'e_card_limit_reached',
            `You can send at most ${ECARD_DAILY_CAP} e-cards in 24 hours. Please try again in ${waitInEnglish(retryAfterSeconds)}.`,
            {
              limit: ECARD_DAILY_CAP,
              retryAfterSeconds,
            },
          );
        }
        const template = tenant.eCard.templates.find((t) => t.name === body.template.name)!;
        const sendAt = timing === 'now' ? now : new Date(body.sendAt!);
        const card = await insertECard(tx, {
          tenantId: tenant.id,
          userId: user.id,
          subscriptionId,
          templateName: template.name,
          templateCategory: template.category,
          fromName: body.from.trim(),
          toName: body.to.trim(),
          toEmail: normalizeEmail(body.toEmail),
          message: body.message.trim(),
          locale: caller.locale,
          sendAt,
          status: 'scheduled',
          createdAt: now,
        });
        if (timing === 'now') {
          await sendECard(tx, tenant, card, deps, now);
          return { id: card.id, status: 'sent', sendAt: sendAt.toISOString() };
        }
        await recordEvent(tx, tenant.id, 'e_card.scheduled', {
          userId: user.id,
          eCardId: card.id,
          subscriptionId,
          template: template.name,
          sendAt: sendAt.toISOString(),
        });
        return { id: card.id, status: 'scheduled', sendAt: sendAt.toISOString() };
      });
    },

    /** GET /e-cards: the caller's timed cards still waiting, so they can be seen and cancelled. */
    async scheduled(caller: AccountCaller): Promise<ECardList> {
      const cards = await listScheduledECards(db, caller.tenant.id, caller.user.id);
      return {
        cards: cards.map((card) => ({
          id: card.id,
          template: { name: card.templateName, category: card.templateCategory },
          to: card.toName,
          toEmail: card.toEmail,
          sendAt: new Date(card.sendAt).toISOString(),
          subscriptionId: card.subscriptionId,
        })),
      };
    },

    /**
     * DELETE /e-cards/{id}: a timed card of the caller's, before it goes out, with `e_card.cancelled`
     * in the same transaction. Someone else's card is as unknown as a card that does not exist.
     */
    async cancel(caller: AccountCaller, id: string): Promise<void> {
      const { tenant, user } = caller;
      await db.transaction(async (tx) => {
        const card = await cancelScheduledECard(tx, tenant.id, user.id, id);
        if (!card) {
          const existing = await findECard(tx, tenant.id, id);
          if (existing && existing.userId === user.id) {
            if (existing.status === 'sent')
              throw new HttpError(409, 'e_card_already_sent', 'This e-card has already been sent.');
            throw new HttpError(
              409,
              'e_card_not_waiting',
              'This e-card could not be sent and is no longer waiting.',
            );
          }
          throw notFound('There is no such e-card.');
        }
        await recordEvent(tx, tenant.id, 'e_card.cancelled', {
          userId: user.id,
          eCardId: card.id,
          subscriptionId: card.subscriptionId,
          template: card.templateName,
          sendAt: new Date(card.sendAt).toISOString(),
        });
      });
    },
  };
}

export type ECards = ReturnType<typeof createECards>;
