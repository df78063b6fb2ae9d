/**
 * Fixtures of the account change screens (holiday service, payment method, complaint, address,
 * opt-ins): the texts and tenant settings they need. Rendering and gestures are the one harness of
 * tests/support/renderScreen.tsx.
 */
import type { ReactNode } from 'react';
import type { PortalConfig } from '../../../engine/domain/portalConfig';
import {
  engineTexts,
  portalConfig,
  render as renderScreen,
  type RenderOptions,
} from '../../support/renderScreen';

export {
  byText,
  choose,
  cleanUp,
  click,
  fakeApi,
  labelled,
  openDialog,
  polyfillDialogs,
  settle,
  settleUntil,
  type,
  type FakeApi,
} from '../../support/renderScreen';

const CHANGE_TEXTS = [
  'core',
  'account',
  'features/holiday-service',
  'features/payment-method-change',
  'features/issue-complaint',
  'features/address-change',
  'features/opt-ins',
];
const texts = engineTexts(CHANGE_TEXTS);
export const en: Record<string, string> = texts['en-GB'];
export const de: Record<string, string> = texts['de-DE'];

export function config(tenant: Record<string, unknown> = {}): PortalConfig {
  return portalConfig(CHANGE_TEXTS, {
    features: [
      'holiday-redirect',
      'holiday-break',
      'payment-method-change',
      'issue-complaint',
      'address-change',
      'opt-ins',
      'contact-form',
    ],
    salutations: {
      options: [
        { code: '0002', title: { 'de-DE': 'Herr', 'en-GB': 'Mr' }, isUserSelectable: true, isCompany: false },
        { code: '0001', title: { 'de-DE': 'Frau', 'en-GB': 'Ms' }, isUserSelectable: true, isCompany: false },
        {
          code: '0003',
          title: { 'de-DE': 'Firma', 'en-GB': 'Company' },
          isUserSelectable: true,
          isCompany: true,
        },
      ],
    },
    addressChange: {
      allowNameChange: false,
      allowCountryChange: false,
      allowEmailChange: true,
      allowPhoneChange: false,
      allowDateOfBirthChange: false,
      timedChanges: true,
    },
    optIns: {
      types: [
        {
          type: 'NEWSLETTER',
          description: { 'de-DE': 'Newsletter per E-Mail', 'en-GB': 'Newsletter by e-mail' },
        },
      ],
      widget: { providers: [] },
    },
    publicationBlacklists: {},
    ...tenant,
  });
}

/** Renders a change screen signed in, with this suite's tenant unless the test brings its own. */
export const render = (
  element: ReactNode,
  options: Omit<RenderOptions, 'portal'> & { portal?: PortalConfig },
) => renderScreen(element, { ...options, portal: options.portal ?? config() });
