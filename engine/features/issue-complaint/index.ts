import { ROUTES } from '../../domain/routeRefs';
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
  // Its subscription-page button, in a module the subscription page loads (types.ts `actions`).
  actions: () => import('./actions'),
});
