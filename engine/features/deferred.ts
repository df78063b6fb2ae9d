/**
 * The registry's deferred table (engine/features/types.ts `deferredScreen`, `deferredActions`): the
 * screens a visit seldom starts on and the subscription page's actions, each feature's listed in its
 * `deferred.ts`. The entry every page loads holds one import for all of them, this file's, instead
 * of one per screen with the list of files each needs (docs/testing.md "Speed and size"); the
 * file comes with the first of them, and the subscription page asks for it with its actions.
 */
import * as addressChange from './address-change/deferred';
import * as bundleGroup from './bundle-group/deferred';
import * as businessPartners from './business-partners/deferred';
import * as cancellation from './cancellation/deferred';
import * as contact from './contact/deferred';
import * as eCard from './e-card/deferred';
import * as emailWidget from './email-widget/deferred';
import * as externalPage from './external-page/deferred';
import * as faq from './faq/deferred';
import * as holidayService from './holiday-service/deferred';
import * as issueCalendar from './issue-calendar/deferred';
import * as issueComplaint from './issue-complaint/deferred';
import * as linkSubscription from './link-subscription/deferred';
import * as loyaltyProgramme from './loyalty-programme/deferred';
import * as memberships from './memberships/deferred';
import * as multiUserLicenses from './multi-user-licenses/deferred';
import * as optInWidget from './opt-in-widget/deferred';
import * as optIns from './opt-ins/deferred';
import * as paymentMethodChange from './payment-method-change/deferred';
import * as phaseUpgrade from './phase-upgrade/deferred';
import * as renewal from './renewal/deferred';
import * as ssoProfilePage from './sso-profile-page/deferred';
import * as subscription from './subscription/deferred';
import * as upgrade from './upgrade/deferred';

export const DEFERRED = {
  'address-change': addressChange,
  'bundle-group': bundleGroup,
  'business-partners': businessPartners,
  cancellation,
  contact,
  'e-card': eCard,
  'email-widget': emailWidget,
  'external-page': externalPage,
  faq,
  'holiday-service': holidayService,
  'issue-calendar': issueCalendar,
  'issue-complaint': issueComplaint,
  'link-subscription': linkSubscription,
  'loyalty-programme': loyaltyProgramme,
  memberships,
  'multi-user-licenses': multiUserLicenses,
  'opt-in-widget': optInWidget,
  'opt-ins': optIns,
  'payment-method-change': paymentMethodChange,
  'phase-upgrade': phaseUpgrade,
  renewal,
  'sso-profile-page': ssoProfilePage,
  subscription,
  upgrade,
};
