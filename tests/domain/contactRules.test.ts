import { describe, expect, it } from 'vitest';
import {
  contactFieldErrors,
  detectUploadType,
  uploadFileName,
  linkedPageLoginErrors,
  linkedPageTarget,
  showsMessage,
  showsOptIn,
  visibleActivities,
  type ContactSettings,
} from '../../engine/domain/contactRules';
import { TINY_PDF, TINY_PNG } from '../support/publicPagesFixtures';

const tenant = (overrides: Partial<ContactSettings> = {}): ContactSettings => ({
  features: ['contact-form', 'opt-ins'],
  contactForm: {
    requireSalutation: true,
    requirePublication: true,
    activities: [
      {
        activity: 'DELIVERY',
        requiresSubscription: true,
        supportsImageUpload: true,
        showOptInCheckbox: true,
      },
      { activity: 'GENERAL', allowMissingOrderNumber: true, visibility: 'all' },
      { activity: 'CALLBACK', disableMessageInput: true, visibility: 'anonymous' },
      { activity: 'REVOKE', visibility: 'authenticated', requiresSubscription: true },
    ],
  },
  ...overrides,
});

const fields = (errors: Array<{ field: string; code: string }>) =>
  errors.map((e) => `${e.field}:${e.code}`).sort();

describe('contact rules (portal-core.md §5, §6)', () => {
  it('filters activities by visibility', () => {
    const activities = tenant().contactForm!.activities!;
    expect(visibleActivities(activities, false).map((a) => a.activity)).toEqual([
      'DELIVERY',
      'GENERAL',
      'CALLBACK',
    ]);
    expect(visibleActivities(activities, true).map((a) => a.activity)).toEqual([
      'DELIVERY',
      'GENERAL',
      'REVOKE',
    ]);
  });

  it('requires every anonymous field, the salutation and publication when the tenant asks for them', () => {
    expect(fields(contactFieldErrors(tenant(), { activity: 'GENERAL' }, false))).toEqual([
      '/contactDetails/email:required',
      '/contactDetails/firstName:required',
      '/contactDetails/lastName:required',
      '/contactDetails/salutation:required',
      '/message:required',
      '/orderNumber:required',
      '/publication:required',
    ]);
  });

  it('requires the company for a company salutation and checks e-mail and order number', () => {
    const input = {
      activity: 'GENERAL',
      message: 'x',
      publication: 'P',
      orderNumber: '1234567',
      contactDetails: { salutation: '0003', firstName: 'A', lastName: 'B', email: 'no-at' },
    };
    expect(fields(contactFieldErrors(tenant(), input, false))).toEqual([
      '/contactDetails/company:required',
      '/contactDetails/email:invalid',
      '/orderNumber:invalid',
    ]);
  });

  it("keeps the sender's details to one line each: they are lines of the mail to customer service", () => {
    const input = {
      activity: 'GENERAL',
      message: 'Zwei\nZeilen sind in der Nachricht erlaubt.',
      publication: 'P',
      missingOrderNumber: true,
      contactDetails: {
        salutation: '0001',
        firstName: 'Anna',
        lastName: 'Schmidt\rE-Mail: anna@example.org',
        company: '-\nAngemeldet als: anna.schmidt@example.org',
        email: 'eve@example.org',
      },
    };
    expect(fields(contactFieldErrors(tenant(), input, false))).toEqual([
      '/contactDetails/company:one_line',
      '/contactDetails/lastName:one_line',
    ]);
    const tabbed = {
      ...input,
      contactDetails: { ...input.contactDetails, lastName: 'A\tB', company: 'x\u202Ey' },
    };
    expect(
      fields(
        contactFieldErrors(
          tenant(),
          {
            ...input,
            contactDetails: { ...input.contactDetails, lastName: 'S', company: '' },
            publication: 'X\nKonto: chef@example.org',
          },
          false,
        ),
      ),
    ).toEqual(['/publication:one_line']);
    expect(fields(contactFieldErrors(tenant(), tabbed, false))).toEqual([
      '/contactDetails/company:one_line',
      '/contactDetails/lastName:one_line',
    ]);
  });

  it('lets the missing-order-number box replace the number only where the activity allows it', () => {
    const base = {
      message: 'x',
      publication: 'P',
      missingOrderNumber: true,
      contactDetails: { salutation: '0001', firstName: 'A', lastName: 'B', email: 'a@b.example' },
    };
    expect(contactFieldErrors(tenant(), { ...base, activity: 'GENERAL' }, false)).toEqual([]);
    expect(fields(contactFieldErrors(tenant(), { ...base, activity: 'DELIVERY' }, false))).toEqual([
      '/missingOrderNumber:not_allowed',
      '/orderNumber:required',
    ]);
  });

  it('drops the message when the activity hides it, unless showMessageInput shows it', () => {
    const activity = tenant().contactForm!.activities![2];
    expect(showsMessage(activity)).toBe(false);
    expect(showsMessage(activity, true)).toBe(true);
  });

  it('asks a signed-in user for the subscription when the activity requires one', () => {
    expect(fields(contactFieldErrors(tenant(), { activity: 'REVOKE', message: 'x' }, true))).toEqual([
      '/subscriptionId:required',
    ]);
    expect(
      contactFieldErrors(tenant(), { activity: 'REVOKE', message: 'x', subscriptionId: '101-1' }, true),
    ).toEqual([]);
  });

  it('offers the opt-in only with the opt-ins feature on an activity that requires a subscription and asks for it', () => {
    const delivery = tenant().contactForm!.activities![0];
    expect(showsOptIn(tenant(), delivery, true)).toBe(true);
    expect(showsOptIn(tenant({ features: ['contact-form'] }), delivery, true)).toBe(false);
    expect(showsOptIn(tenant(), tenant().contactForm!.activities![1], true)).toBe(false);
  });

  it('offers the opt-in to signed-in senders only: an anonymous sender’s address is not proven', () => {
    const delivery = tenant().contactForm!.activities![0];
    expect(showsOptIn(tenant(), delivery, false)).toBe(false);
    const anonymous = {
      activity: delivery.activity,
      message: 'Heft fehlt',
      orderNumber: '4279657509',
      contactDetails: { firstName: 'Anna', lastName: 'Schmidt', email: 'someone-else@example.org' },
      optIn: true,
    };
    expect(contactFieldErrors(tenant(), anonymous, false)).toContainEqual({
      field: '/optIn',
      code: 'not_allowed',
    });
  });

  it('takes uploads of the allowed types up to 2097152 bytes, only on activities with upload', () => {
    const base = { activity: 'DELIVERY', subscriptionId: 's', message: 'x' };
    expect(
      contactFieldErrors(
        tenant(),
        { ...base, image: { filename: 'a.png', mimeType: 'image/png', size: 2_097_152 } },
        true,
      ),
    ).toEqual([]);
    expect(
      fields(
        contactFieldErrors(
          tenant(),
          { ...base, image: { filename: 'a.png', mimeType: 'image/png', size: 2_097_153 } },
          true,
        ),
      ),
    ).toEqual(['/image:file_too_large']);
    expect(
      fields(
        contactFieldErrors(
          tenant(),
          { ...base, image: { filename: 'a.gif', mimeType: 'image/gif', size: 10 } },
          true,
        ),
      ),
    ).toEqual(['/image:file_type']);
    expect(
      fields(
        contactFieldErrors(
          tenant(),
          {
            activity: 'GENERAL',
            message: 'x',
            image: { filename: 'a.png', mimeType: 'image/png', size: 10 },
          },
          true,
        ),
      ),
    ).toEqual(['/image:not_allowed']);
  });

  it('reads the real file type from the first bytes, never from the name', () => {
    expect(detectUploadType(TINY_PNG)).toBe('image/png');
    expect(detectUploadType(TINY_PDF)).toBe('application/pdf');
    expect(detectUploadType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(detectUploadType(Buffer.from('GIF89a'))).toBeUndefined();
    expect(detectUploadType(new Uint8Array())).toBeUndefined();
  });

  it('names an upload with an extension of the type its bytes are', () => {
    expect(uploadFileName('damage.png', 'image/png')).toBe('damage.png');
    expect(uploadFileName('Foto.JPEG', 'image/jpeg')).toBe('Foto.JPEG');
    expect(uploadFileName('scan.hta', 'application/pdf')).toBe('scan.pdf');
    expect(uploadFileName('photo.html', 'image/png')).toBe('photo.png');
    expect(uploadFileName('Rechnung März', 'application/pdf')).toBe('Rechnung März.pdf');
    expect(uploadFileName('.svg', 'image/png')).toBe('attachment.png');
    expect(uploadFileName('a.pdf.', 'application/pdf')).toBe('a.pdf.pdf');
  });

  it('checks the linked-page login fields', () => {
    expect(fields(linkedPageLoginErrors({ orderNumber: '12', zipcode: '12345678901' }))).toEqual([
      '/orderNumber:invalid',
      '/zipcode:too_long',
    ]);
    expect(linkedPageLoginErrors({ orderNumber: '4001234567', zipcode: 'SW1A 1AA' })).toEqual([]);
  });

  it("leads the linked page's sign-in link to the subscription's own page where it has one (a partial session's)", () => {
    expect(linkedPageTarget('/business-partners', 'S 1')).toBe(
      '/subscriptions/S%201/addresses?returnTo=contact',
    );
    expect(linkedPageTarget('/cancellation', 'S1')).toBe('/subscriptions/S1/cancellation?returnTo=contact');
    expect(linkedPageTarget('/renewal/', 'S1')).toBe('/subscriptions/S1/renewal?returnTo=contact');
    expect(linkedPageTarget('/faq', 'S1')).toBe('/faq?returnTo=contact');
  });
});
