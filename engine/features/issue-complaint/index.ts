import { ROUTES } from '../../domain/routeRefs';
import { defineFeature, deferredScreen, deferredActions } from '../types';

/**
 * Issue complaint (account-flows.md §2 "Complaint", §4 "Complaint", §5, §8, §9), switched by
 * `issue-complaint`: the subscription's complaint page (issue, reason, the compensation options
 * the server offers for it, the request) and its button on the subscription page.
 */
export const issueComplaintFeature = defineFeature({
  id: 'issue-complaint',
  flags: ['issue-complaint'],
  routes: [
    {
      ref: ROUTES.subscriptionComplaint,
      access: 'login',
      screen: deferredScreen('issue-complaint', 'ComplaintScreen'),
    },
  ],
  actions: deferredActions('issue-complaint'),
});
