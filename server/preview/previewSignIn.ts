/**
 * POST /preview/api/sign-in {tenant, email, lang?} — the QA preview's way to sign a frame in as a
 * demo user without typing. It exists only when the app is made with
 * devPages (`portal dev`, `npm start`, `portal preview`), never under `portal serve`.
 *
 * Safety (docs/architecture.md "Sign-in safety" still holds on a demo server):
 *  - only the tenant's seeded demo logins (server/seed, a pure function of the tenant) can be
 *    signed in this way; any other address is refused, whether or not it has an account;
 *  - the answer is a single-use magic link (the same token the sign-in mail carries, 15 minutes),
 *    which the frame then opens like a subscriber would, so the session is made by the portal's own
 *    login screen in the frame and kept in that tenant's session storage;
 *  - the body must be JSON: a cross-site form cannot send it without a CORS preflight this server
 *    never allows, and the answer is not readable from another origin.
 */
import type { RequestHandler } from 'express';
import type { Database } from '../db/database';
import { badRequest, forbidden, HttpError } from '../http/errors';
import { insertLoginToken } from '../store/authStore';
import { findUserByEmail } from '../store/userStore';
import { listSubscriptionsForUser } from '../store/subscriptionStore';
import { hashToken, newSecretToken } from '../auth/tokens';
import { MAGIC_LINK_MINUTES, MAGIC_LINK_PURPOSE } from '../auth/signInMailJobs';
import { previewLoginsOf } from './previewLogins';
import { bringDataInHint, isDemoTenant, type CommandDatabase } from '../seed/seedDemo';
import { normalizeEmail } from '../../engine/domain/fieldRules';
import type { TenantDirectory } from '../tenancy/tenantResolver';
import { demoIdsFrom, type DemoIds } from './previewScreens';
import { capabilityContext } from '../tenancy/refusals';
import { rewardsOf, tiersOf } from '../store/loyaltyStore';
import { portalCommand } from '../runtime/portalCommand';

export interface PreviewSignInAnswer {
  /** Open this in the frame: the portal's login screen spends the token and keeps the session. */
  link: string;
  email: string;
  /** The demo user's ids for the route picker's `:id`, `:bpNumber`, `:bundleNumber`, `:publication`. */
  ids: DemoIds;
}

export function previewSignIn(deps: {
  db: Database;
  directory: TenantDirectory;
  now: () => Date;
  demoDataInEveryTenant: boolean;
  /** This server's database, which the hint's commands name. */
  commandDatabase?: CommandDatabase;
}): RequestHandler {
  return async (req, res) => {
    if (!req.is('application/json'))
      throw new HttpError(415, 'unsupported_media_type', 'Send the body as application/json.');
    const body = (req.body ?? {}) as { tenant?: unknown; email?: unknown; lang?: unknown };
    const details: Array<{ field: string; message: string }> = [];
    if (typeof body.tenant !== 'string' || !body.tenant)
      details.push({ field: 'tenant', message: 'must be a tenant id' });
    if (typeof body.email !== 'string' || !body.email)
      details.push({ field: 'email', message: 'must be a demo login e-mail address' });
    if (body.lang !== undefined && body.lang !== 'de' && body.lang !== 'en')
      details.push({ field: 'lang', message: 'must be "de" or "en"' });
    if (details.length) throw badRequest('validation_failed', 'The request is not valid.', details);
    const tenant = deps.directory.get(body.tenant as string);
    if (!tenant)
      throw new HttpError(
        404,
        'unknown_tenant',
        `There is no tenant "${String(body.tenant)}". Known: ${deps.directory
          .all()
          .map((t) => t.id)
          .join(', ')}.`,
      );
    // Whoever a publisher's tenant holds came from its order system (previewLoginsOf).
    if (!isDemoTenant(tenant) && !deps.demoDataInEveryTenant)
      throw forbidden(
        'not_a_demo_tenant',
        `${tenant.id} is no demo tenant: ${bringDataInHint(tenant.id, deps.commandDatabase)}.`,
      );
    const email = normalizeEmail(body.email as string);
    const logins = previewLoginsOf(tenant, deps.demoDataInEveryTenant);
    if (!logins.some((login) => login.email === email)) {
      throw forbidden(
        'not_a_demo_login',
        `The preview signs in only the demo logins of ${tenant.id}: ${logins.map((l) => l.email).join(', ')}.`,
      );
    }
    const user = await findUserByEmail(deps.db, tenant.id, email);
    if (!user)
      throw new HttpError(
        409,
        'demo_data_missing',
        `The demo data of ${tenant.id} is not seeded in this database (${portalCommand()} db seed).`,
      );
    const token = newSecretToken();
    await insertLoginToken(deps.db, tenant.id, {
      tokenHash: hashToken(token),
      email,
      purpose: MAGIC_LINK_PURPOSE,
      expiresAt: new Date(deps.now().getTime() + MAGIC_LINK_MINUTES * 60_000),
    });
    const locale = body.lang === 'de' ? 'de-DE' : body.lang === 'en' ? 'en-GB' : tenant.defaultLocale;
    const subscriptions = await listSubscriptionsForUser(deps.db, tenant.id, user.id, { locale });
    const answer: PreviewSignInAnswer = {
      link: `/t/${encodeURIComponent(tenant.id)}/login?p=${encodeURIComponent(token)}${body.lang ? `&lang=${body.lang}` : ''}`,
      email,
      ids: demoIdsFrom(subscriptions, capabilityContext(tenant), {
        rewardId: await firstReward(deps.db, tenant.id),
      }),
    };
    res.setHeader('Cache-Control', 'no-store');
    res.json(answer);
  };
}

/** A reward of the tenant's first tier, for the reward's page (`:rewardId`); none without a programme. */
async function firstReward(db: Database, tenantId: string): Promise<string | undefined> {
  const [tiers, rewards] = await Promise.all([tiersOf(db, tenantId), rewardsOf(db, tenantId)]);
  for (const tier of tiers) {
    const reward = rewards.find((candidate) => candidate.tier_code === tier.tier_code);
    if (reward) return reward.id;
  }
  return rewards[0]?.id;
}
