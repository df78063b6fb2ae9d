import type { Database } from '../db/database';
import { enqueueMail } from '../store/mailQueueStore';
import { badRequest, HttpError } from '../http/errors';
import {
  linkedPageTarget,
  contactFieldErrors,
  detectUploadType,
  uploadFileName,
  type ContactFieldError,
} from '../../engine/domain/contactRules';
import { isOneLineText, maskEmail, normalizeEmail } from '../../engine/domain/fieldRules';
import type { ContactRequest } from '../../schemas/generated/contact-request';
import type { ContactFormLoginRequest } from '../../schemas/generated/contact-form-login-request';
import { insertContactMessage } from '../store/contactMessageStore';
import { listCalendarPublications } from '../store/issueCalendarStore';
import { partiesOfOrderNumber } from '../store/contactLoginStore';
import { getSubscriptionForUser } from '../store/subscriptionStore';
import type { AuthenticatedUser, AuthService } from '../auth/authService';
import type { RequestOrigin } from '../http/requestOrigin';
import type { ServerTenant } from '../tenancy/tenantContext';
import { contactMail, contactReceiptMail } from './contactMail';
import { recordEvent } from '../events/recordEvent';
import {
  clientKey,
  consumeRateLimit,
  DEFAULT_SIGN_IN_LIMITS,
  guessingOrderNumber,
  isWrongOrderNumberGuess,
  type SignInLimits,
} from '../auth/rateLimit';
import { offeredLocale, wordsIn } from '../../engine/domain/language';

export interface ContactServiceDeps {
  db: Database;
  mailFrom: string;
  now: () => Date;
  auth: AuthService;
  signInLimits?: SignInLimits;
}

/**
 * Messages one client address may send per 15 minutes (the form is open to anonymous visitors);
 * counted in the database like the sign-in limits, so every server instance shares them.
 */
export const CONTACT_MESSAGES_PER_CLIENT = 30;

const FIELD_MESSAGES: Record<ContactFieldError['code'], string> = {
  required: 'is required',
  invalid: 'is not valid',
  one_line: 'must be one line, without line breaks, tabs or control characters',
  too_long: 'is too long (see the limit of the field)',
  not_allowed: 'is not allowed for this activity',
  file_too_large: 'is larger than 2097152 bytes (2 MB)',
  file_type: 'must be a png, jpeg or pdf file',
};

function refuse(errors: ContactFieldError[]): HttpError {
  return badRequest(
    'validation_failed',
    'The contact message is not valid.',
    errors.map((error) => ({ field: error.field, code: error.code, message: FIELD_MESSAGES[error.code] })),
  );
}

/** A 400 carrying a link result (portal-core.md §7 "a 400 carries the link result", §8 contact errors). */
function linkResult(status: string, message: string, extra: Record<string, string> = {}): HttpError {
  return badRequest('link_failed', message, { status, ...extra });
}

/**
 * The contact form's decisions (portal-core.md §2 "Contact", §4, §5, §8): every field rule checked
 * again on the server, the real type of an upload read from its bytes, the message stored and its
 * mail to the tenant's contact address queued in one transaction (both or neither); the mail
 * sender delivers it and retries (no answer waits for a mail server).
 */
export function createContactService(deps: ContactServiceDeps) {
  return {
    /** Publications the anonymous form offers, sorted by description (like GET /publications, §7). */
    async publications(tenant: ServerTenant): Promise<Array<{ publication: string; description: string }>> {
      const rows = await listCalendarPublications(deps.db, tenant.id);
      return rows.map(({ publication, description }) => ({ publication, description }));
    },

    async send(
      tenant: ServerTenant,
      user: AuthenticatedUser | undefined,
      body: ContactRequest,
      client: string,
    ): Promise<{ id: string }> {
      await consumeRateLimit(
        deps.db,
        tenant.id,
        // By the client's /64 on IPv6, as every per-client budget (clientKey): one line's addresses are one sender.
        {
          bucket: `contact:client:${clientKey(client)}`,
          windowSeconds: 15 * 60,
          limit: CONTACT_MESSAGES_PER_CLIENT,
        },
        deps.now(),
      );
      const loggedIn = user !== undefined;
      // §5 upload: decode, measure and identify the file by its magic bytes, never by its name.
      let image: { filename: string; mimeType: string; data: Buffer } | undefined;
      const errors: ContactFieldError[] = [];
      if (body.image) {
        const data = Buffer.from(body.image.data, 'base64');
        const detected = detectUploadType(data);
        const declared = body.image.mimeType === 'image/jpg' ? 'image/jpeg' : body.image.mimeType;
        if (!detected || detected !== declared) errors.push({ field: '/image', code: 'file_type' });
        // The name is a line of the mail and the attachment's name: one line, no direction override
        // (a "scan\u202Efdp.html" would read as a PDF's name).
        if (!isOneLineText(body.image.filename)) errors.push({ field: '/image', code: 'one_line' });
        const filename = body.image.filename.replace(/[\\/\r\n"]/g, '_');
        image = {
          // Passed on with its type's extension (engine/domain/contactRules.ts uploadFileName).
          filename: detected ? uploadFileName(filename, detected) : filename,
          mimeType: detected ?? declared,
          data,
        };
      }
      errors.push(
        ...contactFieldErrors(
          tenant,
          {
            ...body,
            image: image && { filename: image.filename, mimeType: image.mimeType, size: image.data.length },
          },
          loggedIn,
        ),
      );
      if (errors.length > 0) throw refuse(dedupe(errors));

      const activity = tenant.contactForm!.activities!.find(
        (candidate) => candidate.activity === body.activity,
      )!;
      // The sender's language, when the tenant offers it (the body may name any locale).
      const locale = offeredLocale(tenant.locales, body.locale) ?? tenant.defaultLocale;
      const staffLocale = tenant.defaultLocale;
      let subscription: { id: string; orderNumber: string; displayName: string } | undefined;
      // The same subscription named in the staff's language, for their mail.
      let staffSubscription: typeof subscription;
      if (loggedIn && body.subscriptionId) {
        // A partial login (order number, contact form) speaks for its one subscription only.
        const inScope = !user.subscriptionId || user.subscriptionId === body.subscriptionId;
        // Its product name in the sender's language, as the screen showed it, for their receipt.
        const found = inScope
          ? await getSubscriptionForUser(deps.db, tenant.id, user.id, body.subscriptionId, { locale })
          : null;
        // §8 contact error subscription-not-found.
        if (!found) throw linkResult('not_found', 'There is no such subscription on your account.');
        subscription = { id: found.id, orderNumber: found.orderNumber, displayName: found.displayName };
        const forStaff =
          staffLocale === locale
            ? found
            : await getSubscriptionForUser(deps.db, tenant.id, user.id, found.id, { locale: staffLocale });
        staffSubscription = { ...subscription, displayName: forStaff?.displayName ?? found.displayName };
      }
      const details = loggedIn ? { email: user.email } : trimmed(body.contactDetails ?? {});
      const recipient = tenant.contact?.email ?? tenant.contact?.fallbackEmail;
      if (!recipient) throw new HttpError(503, 'contact_unavailable', 'This portal has no contact address.');
      const missingOrderNumber =
        !loggedIn && Boolean(body.missingOrderNumber && activity.allowMissingOrderNumber);
      const message = body.message?.trim() || undefined;
      const relatedTo =
        body.relatedTo ?? (activity.requiresSubscription || subscription ? 'subscription' : 'unspecified');
      const orderNumber = loggedIn
        ? subscription?.orderNumber
        : missingOrderNumber
          ? undefined
          : body.orderNumber?.trim();
      const publication = loggedIn ? undefined : body.publication || undefined;

      return deps.db.transaction(async (tx) => {
        const id = await insertContactMessage(tx, tenant.id, {
          userId: user?.id,
          activity: activity.activity,
          subscriptionId: subscription?.id,
          publication,
          orderNumber,
          missingOrderNumber,
          relatedTo,
          contactDetails: details,
          message,
          optIn: Boolean(body.optIn),
          locale,
          image,
          mailedTo: recipient,
        });
        // Names, not the order system's codes, for the staff who read it: the salutation's title
        // and the publication's description, each with its code.
        const salutation = details.salutation
          ? (wordsIn(
              (tenant.salutations?.options ?? []).find((option) => option.code === details.salutation)?.title,
              staffLocale,
            ) ?? details.salutation)
          : undefined;
        const publicationName =
          !loggedIn && body.publication
            ? (await listCalendarPublications(tx, tenant.id)).find((p) => p.publication === body.publication)
                ?.description
            : undefined;
        const mail = contactMail({
          tenantName: tenant.name,
          locale: staffLocale,
          reference: id,
          activityName:
            activity.name[staffLocale] ??
            activity.name['de-DE'] ??
            activity.name['en-GB'] ??
            activity.activity,
          accountEmail: user?.email,
          subscription: staffSubscription,
          publication:
            loggedIn || !body.publication
              ? undefined
              : publicationName
                ? `${publicationName} (${body.publication})`
                : body.publication,
          senderLocale: locale,
          orderNumber: loggedIn ? undefined : body.orderNumber,
          missingOrderNumber,
          relatedTo,
          contactDetails: loggedIn ? {} : { ...details, salutation },
          optIn: body.optIn === undefined ? undefined : body.optIn,
          attachment: image ? `${image.filename} (${image.mimeType}, ${image.data.length} bytes)` : undefined,
          message,
        });
        await enqueueMail(tx, {
          tenantId: tenant.id,
          to: recipient,
          from: deps.mailFrom,
          replyTo: details.email,
          ...mail,
          attachments: image
            ? [{ filename: image.filename, content: image.data, contentType: image.mimeType }]
            : undefined,
        });
        // A signed-in sender's receipt, at the account's own address (contactReceiptMail).
        if (loggedIn)
          await enqueueMail(tx, {
            tenantId: tenant.id,
            to: user.email,
            from: deps.mailFrom,
            ...contactReceiptMail({
              tenantName: tenant.name,
              locale,
              reference: id,
              activityName: activity.name[locale] ?? activity.name[tenant.defaultLocale] ?? activity.activity,
              subscription,
              message,
            }),
          });
        // An account event: the message reaches the publisher's systems as well as its inbox.
        await recordEvent(tx, tenant.id, 'contact_message.created', {
          messageId: id,
          userId: user?.id ?? null,
          activity: activity.activity,
          subscriptionId: subscription?.id ?? null,
          orderNumber: orderNumber || null,
          publication: publication ?? null,
          missingOrderNumber,
          relatedTo,
          contactDetails: details,
          message: message ?? null,
          optIn: Boolean(body.optIn),
          locale,
          attachment: image
            ? { filename: image.filename, mimeType: image.mimeType, size: image.data.length }
            : null,
        });
        return { id };
      });
    },

    /**
     * POST /login/contact-form (§4 "an activity with a linked page first needs an order number and
     * zip code login"; §7 "includes subscription; a 400 carries the link result"). Order number and
     * zip code are no proof of who asks, so they never open a session, create
     * an account or link a business partner. Outcomes, all as 400 link results:
     *  - not_found: no subscription with that order number;
     *  - verification_failed (method zip): no business partner of it has that zip code;
     *  - confirm_email (maskedEmail): a sign-in link went to the address on record for a partner with
     *    that zip code — the account that speaks for it, else its own e-mail address. Opening the
     *    link opens the partial session (login source contact-form, this one subscription) and
     *    lands on the activity's linked page with returnTo=contact. This
     *    replaces the spec's already_linked (the visitor is helped to that account instead of
     *    told to find it) and email_required (an address typed here would link the partner to an
     *    address nobody proved: docs/architecture.md "Sign-in safety");
     *  - no_email_on_record: no account and no e-mail on record: nothing can be proved here, the
     *    visitor writes a message instead (the form offers it) or contacts customer service.
     */
    async login(tenant: ServerTenant, body: ContactFormLoginRequest, origin: RequestOrigin): Promise<never> {
      // Order number and zip code are a credential: wrong ones are limited as wrong passwords are
      // (server/auth/rateLimit.ts guessingOrderNumber).
      const limits = deps.signInLimits ?? DEFAULT_SIGN_IN_LIMITS;
      return guessingOrderNumber(
        deps.db,
        tenant.id,
        limits,
        { orderNumber: body.orderNumber, client: origin.client },
        deps.now(),
        async (): Promise<never> => {
          const activity = body.activity
            ? tenant.contactForm?.activities?.find((a) => a.activity === body.activity && a.linkedPage)
            : undefined;
          if (body.activity && !activity) throw refuse([{ field: '/activity', code: 'invalid' }]);
          const parties = await partiesOfOrderNumber(deps.db, tenant.id, body.orderNumber);
          if (parties.length === 0)
            throw linkResult('not_found', 'There is no subscription with this order number.');
          const zip = (value: string | null) => (value ?? '').replace(/\s+/g, '').toLowerCase();
          const matching = parties.filter((party) => zip(party.zipcode) === zip(body.zipcode));
          if (matching.length === 0)
            throw linkResult('verification_failed', 'The zip code does not match the order number.', {
              method: 'zip',
            });
          const subscriptionId = matching[0].subscriptionId;
          const proved = matching.filter((party) => party.subscriptionId === subscriptionId);
          // The partner's own address on record first, an account that speaks for it only when it has
          // none (as for the order-number login, server/auth/partialLogin.ts).
          const recipient =
            proved.find((party) => party.email?.trim())?.email ??
            proved.find((party) => party.linkedEmail)?.linkedEmail;
          if (!recipient) {
            throw linkResult(
              'no_email_on_record',
              'No e-mail address is on record for this subscription. Please write to us instead.',
            );
          }
          const email = normalizeEmail(recipient);
          const linkedPage = activity?.linkedPage;
          const returnTo = linkedPage ? linkedPageTarget(linkedPage, subscriptionId) : undefined;
          await deps.auth.sendPartnerSignInLink(
            tenant,
            {
              email,
              bpNumbers: proved.map((party) => party.bpNumber),
              subscriptionId,
              loginSource: 'contact-form',
              returnTo,
            },
            origin,
          );
          throw linkResult(
            'confirm_email',
            'A sign-in link has been sent to the e-mail address on record for this subscription.',
            { maskedEmail: maskEmail(email) },
          );
        },
        isWrongOrderNumberGuess,
      );
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;

function trimmed(details: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(details)) if (value && value.trim()) out[key] = value.trim();
  return out;
}

function dedupe(errors: ContactFieldError[]): ContactFieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.field}:${error.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
