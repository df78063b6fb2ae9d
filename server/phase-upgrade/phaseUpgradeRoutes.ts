/**
 * The phase upgrade (portal-core.md §2 "a phase-upgrade button", §6 "phase upgrade: phase can
 * upgrade, ordering party, active"): POST /subscriptions/{id}/phase-upgrade moves the subscription
 * from its current phase (a trial, say) to its next one. No body; the answer is the subscription
 * as it is afterwards, in the screen's language.
 *
 * One transaction: the capability rule the button is shown by (engine/domain/capabilities.ts), the
 * lifecycle's transition (engine/domain/lifecycle.ts `upgradePhase`: the phase is not upgradable
 * again until the order system names the next one), the account event the order system is told
 * by, and the confirmation mail. The change is pending on top of the order system's data until it
 * confirms or rejects the event (server/store/orderSystemOverlays.ts).
 */
import { Router } from 'express';
import { requireUser } from '../auth/authMiddleware';
import type { AuthService } from '../auth/authService';
import type { Database } from '../db/database';
import { accountCaller, recipients } from '../account/accountContext';
import { changeMail } from '../account/changeMails';
import { recordEvent } from '../events/recordEvent';
import { enqueueMail } from '../store/mailQueueStore';
import { changeLifecycle, getSubscriptionForUser, lockSubscription } from '../store/subscriptionStore';
import type { ApiSlice } from '../tenancy/apiSlice';
import { refusedTransition, refuse, requireCapability } from '../tenancy/refusals';
import { upgradePhase } from '../../engine/domain/lifecycle';
import { utcDay } from '../../engine/domain/dates';

export function phaseUpgradeSlice(deps: {
  auth: AuthService;
  db: Database;
  mailFrom: string;
  now: () => Date;
}): ApiSlice {
  const router = Router();

  router.post('/subscriptions/:id/phase-upgrade', requireUser(deps.auth), async (req, res) => {
    const caller = accountCaller(req, res);
    const { tenant, user, locale } = caller;
    const id = String(req.params.id);
    const today = utcDay(deps.now());
    await deps.db.transaction(async (tx) => {
      await lockSubscription(tx, tenant.id, id);
      const s = await getSubscriptionForUser(tx, tenant.id, user.id, id, { locale });
      if (!s) throw refuse.notYours('There is no such subscription on your account.');
      requireCapability('phaseUpgrade', s, tenant);
      const result = await changeLifecycle(tx, tenant.id, s.id, (state) => upgradePhase(state, { today }), {
        userId: user.id,
        locale: tenant.defaultLocale,
      });
      if (!result.ok) throw refusedTransition(result.refusal);
      await recordEvent(tx, tenant.id, 'phase_upgrade.requested', {
        userId: user.id,
        subscriptionId: s.id,
        orderNumber: s.orderNumber,
      });
      const mail = changeMail('phaseUpgrade', locale, {
        tenant: tenant.name,
        subscription: s.displayName,
        orderNumber: s.orderNumber,
      });
      for (const to of recipients(user.email, null))
        await enqueueMail(tx, { tenantId: tenant.id, to, from: deps.mailFrom, ...mail });
    });
    res.json(await getSubscriptionForUser(deps.db, tenant.id, user.id, id, { locale }));
  });

  return { feature: 'phase-upgrade', router };
}
