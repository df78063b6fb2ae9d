import { canUpgradePhase } from '../../domain/capabilities';
import type { SubscriptionAction } from '../types';

/** The button phase-upgrade adds to the subscription page: the last of §2's list. */
export const actions: readonly SubscriptionAction[] = [
  {
    id: 'phase-upgrade',
    allowed: canUpgradePhase,
    target: { kind: 'dialog', dialog: () => import('./PhaseUpgradeDialog') },
    labelKey: 'phase-upgrade.action',
    hiddenBy: 'phase-upgrade',
    order: 160,
    group: 'keep',
  },
];
