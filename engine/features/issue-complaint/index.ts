import { ROUTES } from '../../domain/routeRefs';
import { can } from '../../domain/capabilities';
import { defineFeature } from '../types';

/**
 * Issue complaint (account-flows.md §2 "Complaint", §4 "Complaint", §5, §8, §9), switched by
 * `issue-complaint`: the subscription's complaint page (issue, reason, the compensation options
 * the server offers for it, the request) and its button on the subscription page.
 */
export const issueComplaintFeature = defineFeature({
  id: 'issue-complaint',
  flags: ['issue-complaint'],
  routes: [{ ref: ROUTES.subscriptionComplaint, access: 'login', screen: () => import('./ComplaintScreen') }],
  actions: [
    {
      // portal-core.md §6 "issue complaint: active, not externally managed, physical or combi, not time-based, not licence manager".
      id: 'complaint',
      allowed: (s, ctx) => can('issueComplaint', s, ctx),
      target: { kind: 'route', route: ROUTES.subscriptionComplaint },
      labelKey: 'issue-complaint.action',
      hiddenBy: 'complaint',
      order: 20,
      group: 'help',
    },
  ],
});
