/**
 * Address change rules of the address screens and the server beyond the field rules of
 * addressRules.ts (account-flows.md §4 "Address change timing", §5 "Address form", §6 "Goods
 * recipient determines the affected physical subscriptions"; portal-core.md §6 roles).
 */
import type { AddressError, AddressField, AddressRuleContext } from './addressRules';

/** What the tenant lets subscribers change online (tenant addressChange); the rest needs the contact form. */
export interface AddressChangeSettings {
  allowNameChange?: boolean;
  allowCountryChange?: boolean;
  allowEmailChange?: boolean;
  allowPhoneChange?: boolean;
  allowDateOfBirthChange?: boolean;
  timedChanges?: boolean;
}

export type AddressChangeGroup = 'names' | 'country' | 'email' | 'phone' | 'dateOfBirth';

/** The fields each tenant switch opens (§5 "Name fields are disabled unless…; country, email, phone and birth date editable only per tenant flags"). */
export const ADDRESS_CHANGE_GROUPS: Readonly<Record<AddressChangeGroup, readonly AddressField[]>> = {
  names: ['salutationCode', 'firstName', 'lastName1', 'company1'],
  country: ['countryCode'],
  email: ['emailAddress'],
  phone: ['phoneNumber'],
  dateOfBirth: ['dateOfBirth'],
};

/** Which groups of fields are editable. */
export function addressChangeAccess(
  settings: AddressChangeSettings | undefined,
): Record<AddressChangeGroup, boolean> {
  return {
    names: Boolean(settings?.allowNameChange),
    country: Boolean(settings?.allowCountryChange),
    email: Boolean(settings?.allowEmailChange),
    phone: Boolean(settings?.allowPhoneChange),
    dateOfBirth: Boolean(settings?.allowDateOfBirthChange),
  };
}

/** Whether a field may be changed online (fields of no group — street, zip, city… — always). */
export function isAddressFieldEditable(
  field: AddressField,
  settings: AddressChangeSettings | undefined,
): boolean {
  const access = addressChangeAccess(settings);
  const group = (Object.keys(ADDRESS_CHANGE_GROUPS) as AddressChangeGroup[]).find((name) =>
    ADDRESS_CHANGE_GROUPS[name].includes(field),
  );
  return group === undefined || access[group];
}

/**
 * §5 "Required fields are starred": the fields addressErrors requires with this context, salutation
 * and company (the last name, unless a company is named).
 */
export function requiredAddressFields(
  ctx: Pick<AddressRuleContext, 'addressLines' | 'companySalutations' | 'emailRequired'>,
  salutationCode?: string | null,
  company1?: string | null,
): Set<AddressField> {
  const fields: AddressField[] = ctx.addressLines ? ['addressLine1'] : ['street', 'streetNumber'];
  fields.push('zipcode', 'city', 'countryCode');
  if (salutationCode && ctx.companySalutations.includes(salutationCode)) fields.push('company1');
  else if (!company1?.trim()) fields.push('lastName1');
  if (ctx.emailRequired) fields.push('emailAddress');
  return new Set(fields);
}

interface SalutationOption {
  code: string;
  isUserSelectable?: boolean;
  isCompany?: boolean;
}

/** Codes of the company salutations (company required, §5). */
export const companySalutationCodes = (salutations: readonly SalutationOption[]) =>
  salutations.filter((s) => s.isCompany).map((s) => s.code);

/**
 * §5 "Salutation choices are limited to user-selectable ones when names may change"; while names
 * are locked the partner's own salutation is shown (all of them, so it can be named).
 */
export function salutationChoices<T extends SalutationOption>(
  salutations: readonly T[],
  namesEditable: boolean,
): T[] {
  // The schema's default: selectable unless said otherwise.
  return namesEditable ? salutations.filter((s) => s.isUserSelectable !== false) : [...salutations];
}

/** §4 "Address change timing: immediately or on a chosen date". */
export type AddressChangeTiming = 'asap' | 'date';

/** The timing's own rule: a chosen date is required (addressErrors checks it is tomorrow or later). */
export function timingErrors(
  timing: AddressChangeTiming,
  validFrom: string | null | undefined,
): AddressError[] {
  return timing === 'date' && !validFrom ? [{ field: 'validFrom', code: 'required' }] : [];
}

/**
 * §5 "A warning shows when timing is 'asap' and the next physical issue's first-shipping date has
 * passed": that issue still goes to the old address.
 */
export function asapMissesNextIssue(
  timing: AddressChangeTiming,
  next: { dateOfFirstShipping: string | null } | null | undefined,
  today: string,
): boolean {
  return timing === 'asap' && Boolean(next?.dateOfFirstShipping) && next!.dateOfFirstShipping! <= today;
}

/** Role precedence of an address (portal-core.md §6): the goods recipient's address decides the delivery. */
export const ADDRESS_ROLE_ORDER = ['WE', 'RE', 'AG', 'LV'] as const;
export type AddressRole = (typeof ADDRESS_ROLE_ORDER)[number];

/** The role whose country list applies to a partner with these roles (§5 "Country list limited to those supported for the subscription and role"). */
export function countryRoleOf(roles: readonly string[]): AddressRole {
  return ADDRESS_ROLE_ORDER.find((role) => roles.includes(role)) ?? 'WE';
}

/** Roles in display order. */
export const sortRoles = <R extends string>(roles: readonly R[]): R[] =>
  [...roles].sort(
    (a, b) => ADDRESS_ROLE_ORDER.indexOf(a as AddressRole) - ADDRESS_ROLE_ORDER.indexOf(b as AddressRole),
  );
