/** Issue complaints (account-flows.md §2). */
import type { FeatureManifest } from '../featureManifest';
import { createComplaintService } from './complaintService';
import { complaintRoutes } from './complaintRoutes';
import { complaintPersonalData } from './personalData';
import { dropRejectedComplaint } from '../store/changeRejectionStore';

export const issueComplaintManifest: FeatureManifest = {
  id: 'issue-complaint',
  routers: (deps) => [
    { router: complaintRoutes({ auth: deps.auth, complaints: createComplaintService(deps) }) },
  ],
  personalData: complaintPersonalData,
  events: ['complaint.created'],
  rejections: { 'complaint.created': dropRejectedComplaint },
};
