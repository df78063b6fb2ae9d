/**
 * Contact form rules shared by the screen and the server (portal-core.md §2 "Contact", §4 contact
 * behaviour, §5 contact and upload rules, §6 activity visibility, §9 upload limits). The server
 * runs the same checks, so a field the form requires is also refused by POST /contact.
 */
import {
  isBlankText,
  isOneLineText,
  isPlausibleEmail,
  isValidCustomerNumber,
  isValidZipCode,
  UPLOAD_MAX_BYTES,
  UPLOAD_MIME_TYPES,
  textLength,
} from './fieldRules';
import { isFeatureOn, type FeatureSwitches } from './tenantFeatures';
import { href, ROUTES, type RouteRef } from './routeRefs';

export type ContactVisibility = 'all' | 'authenticated' | 'anonymous';

export interface ContactActivityRule {
  activity: string;
  visibility?: ContactVisibility;
  requiresSubscription?: boolean;
  linkedPage?: string;
  supportsImageUpload?: boolean;
  disableMessageInput?: boolean;
  showOptInCheckbox?: boolean;
  allowMissingOrderNumber?: boolean;
}

export interface ContactSettings extends FeatureSwitches {
  contactForm?: {
    activities?: readonly ContactActivityRule[];
    requireSalutation?: boolean;
    requirePublication?: boolean;
  };
  salutations?: { options?: ReadonlyArray<{ code: string; isCompany?: boolean }> };
}

/** §6: activities are filtered by visibility (all, authenticated, anonymous). */
export function visibleActivities<A extends ContactActivityRule>(
  activities: readonly A[],
  loggedIn: boolean,
): A[] {
  return activities.filter((activity) => {
    const visibility = activity.visibility ?? 'all';
    return visibility === 'all' || visibility === (loggedIn ? 'authenticated' : 'anonymous');
  });
}

/**
 * §5: the opt-in checkbox shows if the tenant supports opt-ins and the activity requires a
 * subscription (and asks for it) — to a signed-in sender only. The consent goes to the
 * publisher's systems with the sender's address (the `contact_message.created` event), and only a
 * signed-in sender's address is proven (their account's); an anonymous sender types any address,
 * so a stranger could record a marketing consent for it (docs/architecture.md "Where the spec's
 * rules pull apart"). The opt-in widget signs up anonymous visitors, by double opt-in.
 */
export function showsOptIn(
  tenant: FeatureSwitches,
  activity: ContactActivityRule | undefined,
  loggedIn: boolean,
): boolean {
  return Boolean(
    loggedIn &&
    activity?.showOptInCheckbox &&
    activity.requiresSubscription &&
    isFeatureOn(tenant, 'opt-ins'),
  );
}

/** §5: "message required when shown"; the query showMessageInput shows it even when the activity hides it. */
export function showsMessage(activity: ContactActivityRule | undefined, showMessageInput = false): boolean {
  return showMessageInput || !activity?.disableMessageInput;
}

/** The salutation codes that mark a company (§5: company required when the salutation is a company type). */
export function isCompanySalutation(tenant: ContactSettings, code: string | undefined): boolean {
  if (!code) return false;
  const options = tenant.salutations?.options ?? DEFAULT_SALUTATIONS;
  return Boolean(options.find((option) => option.code === code)?.isCompany);
}

/** The demo seed's defaults when a tenant lists no salutations: 0001 Ms, 0002 Mr, 0003 company. */
export const DEFAULT_SALUTATIONS: ReadonlyArray<{ code: string; isCompany?: boolean }> = [
  { code: '0001' },
  { code: '0002' },
  { code: '0003', isCompany: true },
];

/** §9 "Contact subjects". */
export const CONTACT_SUBJECTS = ['subscription', 'purchase-order', 'unspecified'] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number];

export interface ContactInput {
  activity?: string;
  subscriptionId?: string;
  publication?: string;
  orderNumber?: string;
  missingOrderNumber?: boolean;
  relatedTo?: ContactSubject;
  contactDetails?: {
    salutation?: string;
    email?: string;
    firstName?: string;
    lastName?: string;
    company?: string;
  };
  message?: string;
  showMessageInput?: boolean;
  optIn?: boolean;
  image?: { filename: string; mimeType: string; size: number };
}

/** A field problem: the JSON pointer of the field and a stable code the screens translate. */
export interface ContactFieldError {
  field: string;
  code: 'required' | 'invalid' | 'one_line' | 'too_long' | 'not_allowed' | 'file_too_large' | 'file_type';
}

export const CONTACT_MESSAGE_MAX_LENGTH = 5000;

/**
 * Length rules of the contact form by field pointer (§5 names 35 for names; the schema
 * schemas/api/contact-request.schema.json holds the same numbers). The form shows them at the
 * field and refuses on submit; nothing is cut.
 */
export const CONTACT_LIMITS = {
  '/contactDetails/firstName': 35,
  '/contactDetails/lastName': 35,
  '/contactDetails/company': 70,
  '/contactDetails/email': 254,
  '/message': CONTACT_MESSAGE_MAX_LENGTH,
} as const;

/**
 * Every field rule of §5 for one contact message, for a logged-in user (authenticated form) or an
 * anonymous visitor. Returns all problems at once; empty means valid.
 */
export function contactFieldErrors(
  tenant: ContactSettings,
  input: ContactInput,
  loggedIn: boolean,
): ContactFieldError[] {
  const errors: ContactFieldError[] = [];
  const blank = isBlankText;
  const activities = visibleActivities(tenant.contactForm?.activities ?? [], loggedIn);
  const activity = activities.find((candidate) => candidate.activity === input.activity);
  if (blank(input.activity)) errors.push({ field: '/activity', code: 'required' });
  else if (!activity) errors.push({ field: '/activity', code: 'invalid' });

  if (showsMessage(activity, input.showMessageInput)) {
    if (blank(input.message)) errors.push({ field: '/message', code: 'required' });
  }
  if (textLength(input.message ?? '') > CONTACT_MESSAGE_MAX_LENGTH)
    errors.push({ field: '/message', code: 'too_long' });

  if (loggedIn) {
    if (activity?.requiresSubscription && blank(input.subscriptionId))
      errors.push({ field: '/subscriptionId', code: 'required' });
  } else {
    const details = input.contactDetails ?? {};
    // The sender's details are lines of the mail to customer service: one line each
    // (fieldRules.ts isOneLineText), or a name could add a line the server writes itself.
    for (const name of ['salutation', 'firstName', 'lastName', 'company', 'email'] as const)
      if (!isOneLineText(details[name])) errors.push({ field: `/contactDetails/${name}`, code: 'one_line' });
    if (!isOneLineText(input.publication)) errors.push({ field: '/publication', code: 'one_line' });
    if (blank(details.firstName)) errors.push({ field: '/contactDetails/firstName', code: 'required' });
    if (blank(details.lastName)) errors.push({ field: '/contactDetails/lastName', code: 'required' });
    if (blank(details.email)) errors.push({ field: '/contactDetails/email', code: 'required' });
    else if (!isPlausibleEmail(details.email!.trim()))
      errors.push({ field: '/contactDetails/email', code: 'invalid' });
    if (tenant.contactForm?.requireSalutation && blank(details.salutation)) {
      errors.push({ field: '/contactDetails/salutation', code: 'required' });
    }
    if (isCompanySalutation(tenant, details.salutation) && blank(details.company)) {
      errors.push({ field: '/contactDetails/company', code: 'required' });
    }
    for (const [field, max] of [
      ['/contactDetails/firstName', CONTACT_LIMITS['/contactDetails/firstName']],
      ['/contactDetails/lastName', CONTACT_LIMITS['/contactDetails/lastName']],
      ['/contactDetails/company', CONTACT_LIMITS['/contactDetails/company']],
      ['/contactDetails/email', CONTACT_LIMITS['/contactDetails/email']],
    ] as const) {
      const value =
        details[field.slice('/contactDetails/'.length) as 'firstName' | 'lastName' | 'company' | 'email'] ??
        '';
      if (textLength(value) > max && !errors.some((e) => e.field === field))
        errors.push({ field, code: 'too_long' });
    }
    if (tenant.contactForm?.requirePublication && blank(input.publication))
      errors.push({ field: '/publication', code: 'required' });
    const missingAllowed = Boolean(activity?.allowMissingOrderNumber && input.missingOrderNumber);
    if (input.missingOrderNumber && activity && !activity.allowMissingOrderNumber) {
      errors.push({ field: '/missingOrderNumber', code: 'not_allowed' });
    }
    if (!missingAllowed) {
      if (blank(input.orderNumber)) errors.push({ field: '/orderNumber', code: 'required' });
      else if (!isValidCustomerNumber(input.orderNumber!.trim()))
        errors.push({ field: '/orderNumber', code: 'invalid' });
    }
  }

  if (input.optIn && !showsOptIn(tenant, activity, loggedIn))
    errors.push({ field: '/optIn', code: 'not_allowed' });
  if (input.image) {
    if (!activity?.supportsImageUpload) errors.push({ field: '/image', code: 'not_allowed' });
    else if (!(UPLOAD_MIME_TYPES as readonly string[]).includes(input.image.mimeType))
      errors.push({ field: '/image', code: 'file_type' });
    else if (input.image.size > UPLOAD_MAX_BYTES) errors.push({ field: '/image', code: 'file_too_large' });
  }
  return errors;
}

/** §5 linked-page flow: zip code required, at most 10 characters; order number 8 to 10 digits. */
export function linkedPageLoginErrors(input: {
  orderNumber?: string;
  zipcode?: string;
}): ContactFieldError[] {
  const errors: ContactFieldError[] = [];
  if (!input.orderNumber?.trim()) errors.push({ field: '/orderNumber', code: 'required' });
  else if (!isValidCustomerNumber(input.orderNumber.trim()))
    errors.push({ field: '/orderNumber', code: 'invalid' });
  if (!input.zipcode?.trim()) errors.push({ field: '/zipcode', code: 'required' });
  else if (!isValidZipCode(input.zipcode)) errors.push({ field: '/zipcode', code: 'too_long' });
  return errors;
}

/** §5: the accepted upload types by file extension, for the file picker's accept attribute. */
export const UPLOAD_ACCEPT = '.png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf';

/**
 * The real type of an uploaded file from its first bytes (magic numbers), never from its name:
 * PNG 89 50 4E 47 0D 0A 1A 0A, JPEG FF D8 FF, PDF %PDF-. Anything else is undefined.
 */
export function detectUploadType(bytes: Uint8Array): (typeof UPLOAD_MIME_TYPES)[number] | undefined {
  const starts = (signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return undefined;
}

/** The extensions a mail client opens each accepted type by; the first is the one given. */
const UPLOAD_EXTENSIONS: Readonly<Record<(typeof UPLOAD_MIME_TYPES)[number], readonly string[]>> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'application/pdf': ['pdf'],
};

/**
 * The name an upload is passed on under (the attachment of customer service's mail, the change
 * event): the name the subscriber gave, with an extension of the type its bytes are (§5: png, jpeg,
 * pdf), because mail clients and operating systems open an attachment by its extension, not its
 * bytes: a PDF named `scan.hta` or `photo.html` would run as a program or a page. Another extension
 * is replaced (`scan.hta` → `scan.pdf`); a name of nothing but an extension becomes `attachment`.
 */
export function uploadFileName(name: string, type: (typeof UPLOAD_MIME_TYPES)[number]): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const allowed = UPLOAD_EXTENSIONS[type];
  if (allowed.includes(extension)) return name;
  const base = (dot >= 0 ? name.slice(0, dot) : name).replace(/[.\s]+$/, '');
  return `${base || 'attachment'}.${allowed[0]}`;
}

/**
 * Where the linked-page login's sign-in link leads (portal-core.md §4 "Contact form: an activity with
 * a linked page first needs an order number and zip code login, then redirects to the linked page
 * with returnTo contact"). That login opens a "logged in only" session for one subscription
 * (engine/domain/sessionScope.ts), which may not open the account's pages: a linked page that has
 * a page of the subscription's own (the addresses, the cancellation, the renewal, the upgrade)
 * leads there, for the subscription the login proved; any other stays as the tenant names it.
 */
const SUBSCRIPTION_PAGE_OF: Readonly<Record<string, RouteRef<'id'>>> = {
  [`/${ROUTES.businessPartners.path}`]: ROUTES.subscriptionAddresses,
  [`/${ROUTES.cancellation.path}`]: ROUTES.subscriptionCancellation,
  [`/${ROUTES.renewal.path}`]: ROUTES.subscriptionRenewal,
  [`/${ROUTES.upgrade.path}`]: ROUTES.subscriptionUpgrade,
};

export function linkedPageTarget(linkedPage: string, subscriptionId: string): string {
  const [path, query = ''] = linkedPage.split('?');
  const own = SUBSCRIPTION_PAGE_OF[path.replace(/\/+$/, '') || '/'];
  const target = own ? href(own, { id: subscriptionId }) : path;
  const search = new URLSearchParams(query);
  search.set('returnTo', 'contact');
  return `${target}?${search.toString()}`;
}
