import { OfferFlowScreen, type OfferFlowTexts } from '../../account/offers/OfferFlowScreen';
import { can } from '../../domain/capabilities';
import type { Subscription } from '../../../schemas/generated/subscription';
import type { CapabilityContext } from '../../domain/capabilities';

const TEXTS: OfferFlowTexts = {
  heading: 'upgrade.heading',
  intro: 'upgrade.intro',
  legend: 'upgrade.legend',
  submit: 'upgrade.submit',
  empty: 'upgrade.empty',
  planned: 'upgrade.planned',
  notAllowed: 'upgrade.notAllowed',
  successTitle: 'upgrade.successTitle',
  successText: 'upgrade.successText',
  successTextNextCycle: 'upgrade.successTextNextCycle',
};

const canUpgrade = (s: Subscription, ctx: CapabilityContext) => can('upgrade', s, ctx);

/**
 * /subscriptions/{id}/upgrade (account-flows.md §2): "the same without an empty option" — the
 * first offer is chosen — listing only the upgrade times the tenant offers.
 */
export default function UpgradeScreen() {
  return <OfferFlowScreen source="upgrade" texts={TEXTS} allowed={canUpgrade} />;
}
