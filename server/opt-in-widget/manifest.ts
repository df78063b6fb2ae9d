/** The opt-in widget (account-flows.md §2, §7). */
import type { FeatureManifest } from '../featureManifest';
import { createOptInWidget } from './optInWidgetService';
import { optInWidgetSlice } from './optInWidgetRoutes';
import { optInWidgetPersonalData } from './personalData';

export const optInWidgetManifest: FeatureManifest = {
  id: 'opt-in-widget',
  routers: (deps) => [
    {
      slice: optInWidgetSlice({
        db: deps.db,
        optInWidget: createOptInWidget(deps),
        now: deps.now,
        signInLimits: deps.signInLimits,
      }),
    },
  ],
  personalData: optInWidgetPersonalData,
  events: ['opt_in_widget.signed_up', 'opt_in_widget.confirmed'],
};
