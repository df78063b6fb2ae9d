/**
 * Opt-ins of a business partner (account-flows.md §2 "Opt-ins", §3 opt-in item, §4 "Opt-ins", §7;
 * portal-core.md §6 capability "opt-ins"). Switching an opt-in off applies at once; switching one on
 * waits for the double opt-in: an e-mail to the account's address with a link whose page confirms it
 * (a GET shows a button and the button confirms, so a mail scanner opening links confirms nothing).
 * Only the partner the user acts as on the subscription (their current role's partner) is edited.
 */
import type { Database, Queryable } from '../db/database';
import type { Locale } from '../../engine/domain/locales';
import type { Subscription } from '../../schemas/generated/subscription';
import type { OptIn } from '../../schemas/generated/account-changes';
import type { OptInsRequest } from '../../schemas/generated/opt-ins-request';
import { badRequest, notFound } from '../http/errors';
import { href, ROUTES } from '../../engine/domain/routeRefs';
import { langParam } from '../../engine/domain/language';
import { enqueueMail } from '../store/mailQueueStore';
import { recordEvent } from '../events/recordEvent';
import { hashToken, newSecretToken } from '../auth/tokens';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import {
  accountThatAskedForOptIns,
  confirmOptIns,
  markOptInPending,
  optInsOfOpenLink,
  optInsAskedSince,
  optInsOf,
  partnersOfSubscription,
  recordOptInTypes,
  switchOptInOff,
  type OptInRow,
} from '../store/accountChangeStore';
import { refuse, requireCapability } from '../tenancy/refusals';
import type { ServerTenant } from '../tenancy/tenantContext';
import type { AccountCaller } from '../account/accountContext';
import { changeMail } from '../account/changeMails';
import { optInName } from '../../engine/domain/optIns';
import { lockUntilCommit } from '../store/transactionLocks';

/** How long the double opt-in link works. */
export const OPT_IN_LINK_DAYS = 7;

/**
 * How long a switch-on asked again finds its link just sent and sends no other: a second press
 * of save, or a request sent twice, is one change for the order system and one mail; later, a
 * subscriber whose mail went astray gets a new link (which replaces the old one).
 */
export const OPT_IN_RESEND_MINUTES = 10;

/** The opt-ins as the screen shows them, each named as the confirmation e-mail names it (engine/domain/optIns.ts). */
const view = (rows: OptInRow[], tenant: ServerTenant, locale: Locale): OptIn[] =>
  rows.map((r) => ({
    type: r.type,
    description: optInName(tenant.optIns?.types, r, locale),
    value: r.value,
    pending: r.pending,
  }));

/** The opt-in types the tenant file names (`optIns.types`): every subscriber may switch them. */
const typesOf = (tenant: ServerTenant) => tenant.optIns?.types ?? [];

export function createOptIns(deps: { db: Database; mailFrom: string; now: () => Date }) {
  const { db } = deps;

  /** The subscription and the partner: one of the subscription's partners the user speaks for. */
  async function partnerOf(
    tx: Queryable,
    caller: AccountCaller,
    id: string,
    bpNumber: string,
  ): Promise<{ s: Subscription; email: string | null }> {
    const s = await getSubscriptionForUser(tx, caller.tenant.id, caller.user.id, id, {
      locale: caller.locale,
    });
    if (!s) throw refuse.notYours('There is no such subscription on your account.');
    requireCapability('optIns', s, caller.tenant);
    const partner = (await partnersOfSubscription(tx, caller.tenant.id, s.id, caller.user.id)).find(
      (p) => p.bpNumber === bpNumber,
    );
    if (!partner || !partner.mine) throw notFound('This business partner is not yours on this subscription.');
    return { s, email: partner.emailAddress };
  }

  return {
    async list(caller: AccountCaller, id: string, bpNumber: string): Promise<OptIn[]> {
      await partnerOf(db, caller, id, bpNumber);
      return view(
        await optInsOf(db, caller.tenant.id, bpNumber, typesOf(caller.tenant)),
        caller.tenant,
        caller.locale,
      );
    },

    /** POST: the changed items; off at once, on pending the e-mailed link (one link for all switched on). */
    async change(
      caller: AccountCaller,
      id: string,
      bpNumber: string,
      body: OptInsRequest,
      portalUrl: string,
    ): Promise<OptIn[]> {
      const { tenant } = caller;
      // One answer per type: two that disagree ({PHONE: off}, {PHONE: on}) leave nothing to go by.
      const twice = body.optIns
        .map((item) => item.type)
        .filter((type, index, types) => types.indexOf(type) !== index);
      if (twice.length > 0)
        throw badRequest(
          'validation_failed',
          `An opt-in is named twice: ${[...new Set(twice)].join(', ')}.`,
          {
            fields: { optIns: 'duplicate' },
          },
        );
      return db.transaction(async (tx) => {
        const partner = await partnerOf(tx, caller, id, bpNumber);
        // One change of a partner's opt-ins at a time: the next sees what this one asked for.
        await lockUntilCommit(tx, `opt-ins:${tenant.id}:${bpNumber}`);
        await recordOptInTypes(
          tx,
          tenant.id,
          bpNumber,
          typesOf(tenant).filter((t) => body.optIns.some((item) => item.type === t.type)),
        );
        const rows = await optInsOf(tx, tenant.id, bpNumber);
        const unknown = body.optIns.filter((item) => !rows.some((r) => r.type === item.type));
        if (unknown.length > 0)
          throw badRequest('validation_failed', `Unknown opt-in: ${unknown.map((u) => u.type).join(', ')}.`, {
            fields: { optIns: 'invalid' },
          });
        const changes: Array<{ type: string; value: boolean; pending: boolean }> = [];
        const switchedOn: OptInRow[] = [];
        const token = newSecretToken();
        const expiresAt = new Date(deps.now().getTime() + OPT_IN_LINK_DAYS * 86_400_000);
        const justAsked = new Set(
          await optInsAskedSince(
            tx,
            tenant.id,
            bpNumber,
            new Date(expiresAt.getTime() - OPT_IN_RESEND_MINUTES * 60_000),
          ),
        );
        for (const item of body.optIns) {
          const row = rows.find((r) => r.type === item.type)!;
          if (!item.value && (row.value || row.pending)) {
            await switchOptInOff(tx, tenant.id, bpNumber, item.type);
            changes.push({ type: item.type, value: false, pending: false });
          } else if (item.value && !row.value && !justAsked.has(item.type)) {
            await markOptInPending(tx, tenant.id, bpNumber, item.type, hashToken(token), expiresAt);
            changes.push({ type: item.type, value: false, pending: true });
            switchedOn.push(row);
          }
        }
        if (changes.length > 0)
          await recordEvent(tx, tenant.id, 'opt_ins.changed', { userId: caller.user.id, bpNumber, changes });
        if (switchedOn.length > 0) {
          const mail = changeMail('optInConfirm', caller.locale, {
            tenant: tenant.name,
            types: view(switchedOn, tenant, caller.locale)
              .map((o) => o.description)
              .join(', '),
            // The portal's page (engine/features/opt-ins/OptInConfirmScreen.tsx), in the mail's language.
            link: `${portalUrl}${href(ROUTES.optInConfirm, {}, { token, lang: langParam(caller.locale) }).slice(1)}`,
          });
          // Double opt-in: the address the information will go to confirms it — the partner's own on record, else the account's.
          await enqueueMail(tx, {
            tenantId: tenant.id,
            to: partner.email?.trim() || caller.user.email,
            from: deps.mailFrom,
            ...mail,
          });
        }
        return view(await optInsOf(tx, tenant.id, bpNumber, typesOf(tenant)), tenant, caller.locale);
      });
    },

    /**
     * What the link's page offers: the opt-ins the link confirms, named in the page's language;
     * none for a spent, expired or made-up link, whose page offers no button.
     */
    async linkState(
      tenant: ServerTenant,
      token: string,
      locale: Locale,
    ): Promise<{ open: boolean; optIns: string[] }> {
      const rows = token === '' ? [] : await optInsOfOpenLink(db, tenant.id, hashToken(token), deps.now());
      return { open: rows.length > 0, optIns: rows.map((row) => optInName(typesOf(tenant), row, locale)) };
    },

    /** The link's confirmation: the pending opt-ins of that link become on. Once; null when spent or expired. */
    async confirm(tenant: ServerTenant, token: string): Promise<{ types: string[] } | null> {
      return db.transaction(async (tx) => {
        const confirmed = await confirmOptIns(tx, tenant.id, hashToken(token), deps.now());
        if (!confirmed) return null;
        await recordEvent(tx, tenant.id, 'opt_in.confirmed', {
          userId: await accountThatAskedForOptIns(tx, tenant.id, confirmed.bpNumber),
          bpNumber: confirmed.bpNumber,
          types: confirmed.types,
        });
        return { types: confirmed.types };
      });
    },
  };
}

export type OptIns = ReturnType<typeof createOptIns>;
