/**
 * The personal-data catalogue (docs/subscribers.md "Download my data": "The personal-data catalogue"): one
 * manifest per server slice, declared in the slice's own personalData.ts next to the code that
 * writes the rows, collected here. A slice that adds a table holding personal data adds its
 * declaration there (and the slice's import here, once); the catalogue test
 * (tests/server/privacy/personalDataCatalogue.int.test.ts) names every table it misses.
 */
import { accountPersonalData } from '../account/personalData';
import { addressChangePersonalData } from '../address-change/personalData';
import { authPersonalData } from '../auth/personalData';
import { businessPartnerPersonalData } from '../business-partners/personalData';
import { cancellationPersonalData } from '../cancellation/personalData';
import { contactPersonalData } from '../contact/personalData';
import { dataExportPersonalData } from '../data-export/personalData';
import { databasePersonalData } from '../db/personalData';
import { documentsPersonalData } from '../documents/personalData';
import { eCardPersonalData } from '../e-card/personalData';
import { emailWidgetPersonalData } from '../email-widget/personalData';
import { eventsPersonalData } from '../events/personalData';
import { holidayServicePersonalData } from '../holiday-service/personalData';
import { insightsPersonalData } from '../insights/personalData';
import { complaintPersonalData } from '../issue-complaint/personalData';
import { loyaltyPersonalData } from '../loyalty-programme/personalData';
import { mailPersonalData } from '../mail/personalData';
import { licensesPersonalData } from '../multi-user-licenses/personalData';
import { offersPersonalData } from '../offers/personalData';
import { operatorPersonalData } from '../operator/personalData';
import { optInWidgetPersonalData } from '../opt-in-widget/personalData';
import { optInsPersonalData } from '../opt-ins/personalData';
import { ordersPersonalData } from '../orders/personalData';
import { paymentsPersonalData } from '../payments/personalData';
import { subscriptionPersonalData } from '../subscription/personalData';
import type { PersonalDataManifest, PersonalDataTable } from './personalDataTypes';

export const PERSONAL_DATA_CATALOGUE: readonly PersonalDataManifest[] = [
  accountPersonalData,
  addressChangePersonalData,
  authPersonalData,
  businessPartnerPersonalData,
  cancellationPersonalData,
  complaintPersonalData,
  contactPersonalData,
  dataExportPersonalData,
  databasePersonalData,
  documentsPersonalData,
  eCardPersonalData,
  emailWidgetPersonalData,
  eventsPersonalData,
  holidayServicePersonalData,
  insightsPersonalData,
  licensesPersonalData,
  loyaltyPersonalData,
  mailPersonalData,
  offersPersonalData,
  operatorPersonalData,
  optInWidgetPersonalData,
  optInsPersonalData,
  ordersPersonalData,
  paymentsPersonalData,
  subscriptionPersonalData,
];

/** Every declared table, with the slice that declares it. */
export const personalDataTables = (
  catalogue: readonly PersonalDataManifest[] = PERSONAL_DATA_CATALOGUE,
): Array<PersonalDataTable & { slice: string }> =>
  catalogue.flatMap((manifest) => manifest.tables.map((table) => ({ ...table, slice: manifest.slice })));
