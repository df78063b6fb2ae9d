/** The contact form (portal-core.md §2); docs/architecture.md's model slice. */
import type { FeatureManifest } from '../featureManifest';
import { createContactService } from './contactService';
import { contactSlice } from './contactRoutes';
import { contactPersonalData } from './personalData';

export const contactManifest: FeatureManifest = {
  id: 'contact',
  routers: (deps) => [{ slice: contactSlice({ auth: deps.auth, contact: createContactService(deps) }) }],
  personalData: contactPersonalData,
  events: ['contact_message.created'],
};
