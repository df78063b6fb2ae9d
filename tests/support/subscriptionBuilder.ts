/**
 * `makeSubscription({ orderStatus: 'AK' })` (CONVENTIONS.md rule 9): a valid API Subscription — an
 * active print subscription the user orders, receives and pays — changed only where a test's story needs.
 */
import type { Subscription } from '../../schemas/generated/subscription';

export function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  const party = {
    bpNumber: '0012345678',
    role: 'AG' as const,
    salutationCode: '0001',
    firstName: 'Anna',
    lastName1: 'Schmidt',
    company1: null,
    street: 'Lindenstraße',
    streetNumber: '12',
    zipcode: '10969',
    city: 'Berlin',
    countryCode: 'DE',
  };
  return {
    id: 'SKZ4123456789',
    orderNumber: '4123456789',
    displayName: 'Stadtkurier – Print',
    typeKey: 'PRINT',
    publication: 'SKT',
    publicationName: 'Stadtkurier',
    edition: null,
    clientId: 'SKZ',
    mixType: 'PR',
    mixTypeDetails: { mixTypeDesc: 'Print', mediumType: null, pdfDownload: false, complaintIssues: 3 },
    coverImageUrl: null,
    orderStatus: 'A',
    validFromOnSaleDate: '2024-01-01',
    validToOnSaleDate: null,
    custOrderNumber: null,
    custOrderDate: '2023-12-20',
    isRenewal: false,
    isTimebased: false,
    isMultiLicense: false,
    isCombiSubscription: false,
    isCancelable: true,
    salesDocumentType: 'ZABO',
    salesSource: 'WEB',
    salesOrganization: '1000',
    prSourceVar: null,
    roles: ['AG', 'WE', 'RE'],
    businessPartners: [
      { role: 'AG', bpNumber: party.bpNumber },
      { role: 'WE', bpNumber: party.bpNumber },
      { role: 'RE', bpNumber: party.bpNumber },
    ],
    currentRoleBusinessPartner: party,
    nextIssue: null,
    activeHolidayServiceType: null,
    orderAttributes: [],
    bundle: null,
    bundles: [],
    currentPhase: null,
    currentChangeInfo: null,
    currentSuspension: null,
    renewal: {
      autoRenewal: false,
      orderCurrency: 'EUR',
      expiryDesc: null,
      expiryIssueNr: null,
      offerClassification: null,
      renewalBundleComponent: null,
      maxCycleOfferOfferDescription: null,
    },
    ...overrides,
  };
}

/** The same subscription seen by a user with only these roles (the first is the current role). */
export function withRoles(roles: Subscription['roles'], overrides: Partial<Subscription> = {}): Subscription {
  const base = makeSubscription(overrides);
  return {
    ...base,
    roles,
    currentRoleBusinessPartner: { ...base.currentRoleBusinessPartner, role: roles[0] },
  };
}
