/**
 * Field rules shared by the forms and the server (portal-core.md §5, §9). Each limit lives here
 * once; screens and API handlers both call these functions.
 */

/**
 * A field left empty for the eye: nothing, or only spaces, line breaks, control characters and
 * invisible format characters (a right-to-left override, a zero-width space). A required name made
 * of those would pass as given and go into a mail's greeting as nothing, or as a reversed text.
 */
export function isBlankText(value: string | null | undefined): boolean {
  return !value || !/[^\s\p{Z}\p{Cc}\p{Cf}]/u.test(value);
}

/**
 * A one-line field (a name, a street, a city): no line breaks, tabs or other control characters,
 * and no bidirectional overrides or isolates, which would turn the text around where it is shown.
 * Such a value would add lines to the mails and documents it goes into ("Firma: -\nAngemeldet als: …"
 * in a contact mail to customer service) and to the order system's address. A text field cannot
 * take a line break typed or pasted; the rule holds the API to the same.
 */
export function isOneLineText(value: string | null | undefined): boolean {
  return !value || !/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u.test(value);
}

/**
 * A postal address's text as a label printer and the invoice's fonts can print it: no emoji or other
 * pictographs (a delivery label has no glyph for "Strandweg 1 🏖️", and the invoice PDF drops it).
 * © and ® stay: they are Latin-1 and printed in company names.
 */
export function isPrintableOnLabel(value: string | null | undefined): boolean {
  return !value || !PICTOGRAPH.test(value);
}

const PICTOGRAPH = /(?![\u00A9\u00AE])\p{Extended_Pictographic}/u;

const SURROGATE_PAIRS = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * A text's length as the database's `varchar(n)` and the API's JSON schemas (`maxLength`) count
 * it: in code points, so an emoji such as 🎉 is one, not the two UTF-16 units of `String.length`
 * (a joined one, 👨‍👩‍👧, is still five, as the database counts it). Every length limit of a
 * field is measured with it.
 */
export function textLength(value: string): number {
  return value.length - (value.match(SURROGATE_PAIRS)?.length ?? 0);
}

/**
 * What no address a person types holds: spaces, and what makes a recipient a list or a name with
 * an address to a mail library ("a@x.de, b@y.de", "Anna <a@x.de>"), which would deliver to an
 * address other than the one checked. Quoted local parts (RFC 5321) are given up for it, and so are
 * emoji, which mail servers without SMTPUTF8 refuse and nobody types into a sign-in address.
 */
const NOT_IN_AN_ADDRESS = /[\s,;<>()[\]"\\:]/;

/** A pragmatic e-mail check: one @, something before, a dot in the domain, one mailbox. */
export function isPlausibleEmail(value: string): boolean {
  return (
    value.length <= 254 &&
    !NOT_IN_AN_ADDRESS.test(value) &&
    !PICTOGRAPH.test(value) &&
    /^[^@]+@[^@]+\.[^@]+$/.test(value)
  );
}

/**
 * An address one signs in with: a plausible one (isPlausibleEmail) written only in the characters
 * every sign-in form takes: a local part of dot-separated runs of ASCII letters, digits and the
 * symbols RFC 5322 allows there, and a domain of dot-separated labels of ASCII letters, digits and
 * inner hyphens. The API schemas' `email` format is this rule (server/http/validateBody.ts), so an
 * address a person may give as a login (registration, a changed account address, a licence
 * invitation) is one every sign-in form then takes: "zoë@exämple.org" would be taken as a new
 * account address, and its owner could not sign in again.
 */
const SIGN_IN_ADDRESS =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export function isSignInAddress(value: string): boolean {
  return isPlausibleEmail(value) && SIGN_IN_ADDRESS.test(value);
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Domains of one provider that ignores dots in the local part (Gmail): they reach one inbox. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, for "one per address" rules: normalized, without a `+tag`
 * in its local part (name+anything@example.org reaches name@example.org at most providers), and for
 * Gmail without dots and under one domain (v.oucher.farm@googlemail.com is voucherfarm@gmail.com).
 * Migration 043 states the same rule once for the rows made before.
 */
export function mailboxOf(email: string): string {
  const [local, domain] = normalizeEmail(email)
    .replace(/\+[^@]*@/, '@')
    .split('@');
  if (domain === undefined) return local;
  return DOTLESS_DOMAINS.has(domain) ? `${local.replaceAll('.', '')}@gmail.com` : `${local}@${domain}`;
}

/**
 * The e-mail shown in already-linked and confirm dialogs (portal-core.md §7 link results, §8
 * contact errors): the first letter of the name and of the domain, each with three stars, and the
 * domain's last label ("a***@t***.de"). Enough for its owner to recognise the address; the
 * domain itself (an employer's, a family's own) stays unsaid to whoever typed an order number and
 * a name, which is not proof of owning the address. A fixed number of stars, so the mask does not
 * tell the length of the address.
 */
export function maskEmail(email: string): string {
  const parts = emailParts(email);
  if (!parts) return '***';
  const domain = parts.domain.replace(/\.$/, '');
  const dot = domain.lastIndexOf('.');
  const top = dot > 0 ? domain.slice(dot) : '';
  return `${firstCharacter(parts.local)}***@${firstCharacter(domain)}***${top}`;
}

/**
 * The name masked, the domain kept ("a***@schmidt-family.de"): for a reader who owns the other side
 * and must tell which account is meant before giving it something. The owner of the address on
 * record, asked to let an account link their subscription (link-subscription's confirmation mail
 * and page), and an account's own address told of a new sign-in address it chose: a first letter and
 * a domain initial would fit a stranger's account on any domain with that letter.
 */
export function maskEmailName(email: string): string {
  const parts = emailParts(email);
  return parts ? `${firstCharacter(parts.local)}***@${parts.domain}` : '***';
}

function emailParts(email: string): { local: string; domain: string } | undefined {
  const at = email.lastIndexOf('@');
  return at < 0 ? undefined : { local: email.slice(0, at), domain: email.slice(at + 1) };
}

/** The first character, a whole one (an emoji or another astral character is two UTF-16 units). */
const firstCharacter = (text: string) => Array.from(text)[0] ?? '';

/** §5: order numbers are 10 digits (usually starting with 4); the input accepts 8 to 10 digits. */
export const ORDER_NUMBER_PATTERN = /^\d{8,10}$/;
export const ORDER_NUMBER_MAX_LENGTH = 10;
export function isValidOrderNumber(value: string): boolean {
  return ORDER_NUMBER_PATTERN.test(value);
}

/** §5: customer or order number on the contact form and e-mail widget: 8 to 10 digits. */
export function isValidCustomerNumber(value: string): boolean {
  return /^\d{8,10}$/.test(value);
}

/** §5: business partner numbers are exactly 10 digits. */
export function isValidBpNumber(value: string): boolean {
  return /^\d{10}$/.test(value);
}

/** §5, §9: zip codes in forms are required and at most 10 characters. */
export const ZIP_CODE_MAX_LENGTH = 10;
export function isValidZipCode(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length > 0 && trimmed.length <= ZIP_CODE_MAX_LENGTH;
}

/** §5: passwords have 8 to 20 characters with at least one upper-case letter, one lower-case letter and one digit. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;

/**
 * What a new password lacks, one named problem, so the form can say exactly that next to the rule
 * it already shows (the rule printed twice tells nobody what is wrong). A password is
 * never cut to fit: 21 characters are `too_long`, not 20 characters saved.
 */
export type PasswordRuleProblem = 'required' | 'too_short' | 'too_long' | 'needs_mix';
export function passwordProblem(value: string): PasswordRuleProblem | null {
  if (value.length === 0) return 'required';
  if (value.length < PASSWORD_MIN_LENGTH) return 'too_short';
  if (value.length > PASSWORD_MAX_LENGTH) return 'too_long';
  // Letters of any script: Ä is an upper-case letter, é a lower-case one.
  if (!/\p{Lu}/u.test(value) || !/\p{Ll}/u.test(value) || !/\d/.test(value)) return 'needs_mix';
  return null;
}

export function isValidPassword(value: string): boolean {
  return passwordProblem(value) === null;
}

/**
 * The repeat field of a new password: required, and equal to the password; an empty
 * repeat is a problem of its own even under an empty or invalid password, so it is never silent.
 */
export function passwordRepeatProblem(password: string, repeat: string): 'required' | 'mismatch' | null {
  if (repeat.length === 0) return 'required';
  return repeat === password ? null : 'mismatch';
}

/** Display, first and last name of a new account (schemas/api/registration-request.schema.json: 80). */
export const ACCOUNT_NAME_MAX_LENGTH = 80;

/** §5: the forgot-password e-mail is trimmed and at most 50 characters. */
export const FORGOT_PASSWORD_EMAIL_MAX_LENGTH = 50;

/** §5, §9: contact uploads: png, jpeg or pdf, at most 2097152 bytes (2 MB). */
export const UPLOAD_MAX_BYTES = 2_097_152;
export const UPLOAD_MIME_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;

/** The kinds of value an order attribute takes (tenant `orderAttributes.attributes[].inputType`). */
export type OrderAttributeInputType = 'text' | 'number' | 'email' | 'tel' | 'date';

/**
 * Whether a value is of its order attribute's kind (portal-core.md §3 "Order attribute config …
 * inputType"): a number in digits (a decimal point or comma allowed), an e-mail address, a phone
 * number of digits, spaces and + ( ) / -, a calendar day as YYYY-MM-DD. The screen's field and the
 * server both ask this, so an API client cannot store "soon" in a date attribute either.
 */
export function fitsOrderAttribute(inputType: OrderAttributeInputType | undefined, value: string): boolean {
  switch (inputType) {
    case 'number':
      return /^[+-]?\d+(?:[.,]\d+)?$/.test(value);
    case 'email':
      return isPlausibleEmail(value);
    case 'tel':
      return /^\+?[\d\s()/-]*\d[\d\s()/-]*$/.test(value) && value.replace(/\D/g, '').length >= 3;
    case 'date': {
      const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      if (!day) return false;
      const date = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])));
      return date.toISOString().slice(0, 10) === value;
    }
    default:
      return true;
  }
}
