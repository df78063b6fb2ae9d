/** The issue calendar (portal-core.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { issueCalendarSlice } from './issueCalendarRoutes';

export const issueCalendarManifest: FeatureManifest = {
  id: 'issue-calendar',
  routers: (deps) => [{ slice: issueCalendarSlice(deps) }],
};
