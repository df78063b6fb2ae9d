import { describe, expect, it } from 'vitest';
import {
  acceptLicenseErrors,
  activeLicenseCount,
  isAtMaximum,
  licenseActionRefusal,
  licensePersonErrors,
  licenseStatus,
  pageOf,
  type LicenseObjectState,
  type LicenseState,
} from '../../engine/domain/licenses';

const lic = (over: Partial<LicenseState> = {}): LicenseState => ({
  isActive: true,
  isReactivatable: true,
  isConfirmed: true,
  ...over,
});
const object = (over: Partial<LicenseObjectState> = {}): LicenseObjectState => ({
  maxActiveLicenses: 3,
  selfServiceEnabled: true,
  licenses: [lic(), lic({ isActive: false })],
  ...over,
});
const owner = { isLicenseManager: false };
const manager = { isLicenseManager: true };

describe('licence actions (account-flows.md §6)', () => {
  it('counts active licences, invited ones included, and tells the maximum', () => {
    const o = object({
      licenses: [lic(), lic({ isConfirmed: false }), lic({ isActive: false })],
      maxActiveLicenses: 2,
    });
    expect(activeLicenseCount(o)).toBe(2);
    expect(isAtMaximum(o)).toBe(true);
    expect(isAtMaximum(object())).toBe(false);
  });

  it('refuses adding at the maximum of active licences and allows it below', () => {
    expect(licenseActionRefusal('add', owner, {}, object({ maxActiveLicenses: 1 }))).toBe(
      'license_limit_reached',
    );
    expect(licenseActionRefusal('add', owner, {}, object())).toBeNull();
  });

  it('refuses every licence action when self-service is off for the object', () => {
    const off = object({ selfServiceEnabled: false });
    for (const action of ['add', 'activate', 'deactivate', 'delete', 'sendInvitation'] as const) {
      expect(licenseActionRefusal(action, owner, {}, off, lic({ isActive: action === 'deactivate' }))).toBe(
        'self_service_disabled',
      );
    }
  });

  it('activates only an inactive, reactivatable licence while a seat is free', () => {
    expect(licenseActionRefusal('activate', owner, {}, object(), lic({ isActive: false }))).toBeNull();
    expect(
      licenseActionRefusal('activate', owner, {}, object(), lic({ isActive: false, isReactivatable: false })),
    ).toBe('license_not_reactivatable');
    expect(
      licenseActionRefusal('activate', owner, {}, object({ maxActiveLicenses: 1 }), lic({ isActive: false })),
    ).toBe('license_limit_reached');
    expect(licenseActionRefusal('activate', owner, {}, object(), lic())).toBe('no_change');
    expect(licenseActionRefusal('deactivate', owner, {}, object(), lic({ isActive: false }))).toBe(
      'no_change',
    );
  });

  it('resends an invitation only until the licence is accepted', () => {
    expect(
      licenseActionRefusal('sendInvitation', owner, {}, object(), lic({ isConfirmed: false })),
    ).toBeNull();
    expect(licenseActionRefusal('sendInvitation', owner, {}, object(), lic())).toBe(
      'license_already_confirmed',
    );
  });

  it('never lets a licence manager delete licence managers; the ordering party may', () => {
    expect(licenseActionRefusal('deleteManager', manager, {})).toBe('not_allowed');
    expect(licenseActionRefusal('deleteManager', owner, {})).toBeNull();
  });

  it('lets a licence manager delete licence users and hand on the role only as the tenant allows', () => {
    expect(licenseActionRefusal('delete', manager, {}, object(), lic())).toBeNull();
    expect(licenseActionRefusal('delete', manager, { allowDelete: false }, object(), lic())).toBe(
      'not_allowed',
    );
    expect(licenseActionRefusal('delete', owner, { allowDelete: false }, object(), lic())).toBeNull();
    expect(licenseActionRefusal('replaceManager', manager, { allowManagerReplacement: false })).toBe(
      'not_allowed',
    );
    expect(licenseActionRefusal('replaceManager', owner, { allowManagerReplacement: false })).toBeNull();
  });

  it('names a licence invited until accepted, then active or inactive', () => {
    expect(licenseStatus(lic({ isConfirmed: false }))).toBe('invited');
    expect(licenseStatus(lic())).toBe('active');
    expect(licenseStatus(lic({ isActive: false, isConfirmed: false }))).toBe('inactive');
  });

  it('pages licences by 10 and keeps the page in range', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    expect(pageOf(items, 0)).toMatchObject({ totalPages: 3, page: 0, items: items.slice(0, 10) });
    expect(pageOf(items, 2).items).toEqual([20, 21, 22]);
    expect(pageOf(items, 9).page).toBe(2);
    expect(pageOf([], 0)).toMatchObject({ totalPages: 1, items: [] });
  });
});

describe('licence forms (account-flows.md §5)', () => {
  const codes = { salutationRequired: true, salutationCodes: ['0001', '0002'] };

  it('needs e-mail, first and last name of at most 30 characters, and the salutation when required', () => {
    expect(licensePersonErrors({}, codes)).toEqual({
      salutationCode: 'required',
      emailAddress: 'required',
      firstName: 'required',
      lastName1: 'required',
    });
    expect(
      licensePersonErrors(
        { emailAddress: 'a@b.example', firstName: 'x'.repeat(30), lastName1: 'y'.repeat(31) },
        { ...codes, salutationRequired: false },
      ),
    ).toEqual({ lastName1: 'too_long' });
    // The licence user signs in with it: an address the sign-in forms refuse is not taken.
    expect(
      licensePersonErrors(
        { emailAddress: 'zoë@exämple.org', firstName: 'Zoë', lastName1: 'Muster' },
        { ...codes, salutationRequired: false },
      ),
    ).toEqual({ emailAddress: 'not_for_sign_in' });
    expect(
      licensePersonErrors(
        { salutationCode: '9999', emailAddress: 'not-an-address', firstName: 'A', lastName1: 'B' },
        codes,
      ),
    ).toEqual({ salutationCode: 'invalid', emailAddress: 'invalid' });
    // Names go into the invitation mail: one line each, no text of their own below the greeting.
    expect(
      licensePersonErrors(
        {
          emailAddress: 'a@b.example',
          firstName: 'Max\n\nBitte hier anmelden: https://x.example',
          lastName1: 'B',
        },
        { ...codes, salutationRequired: false },
      ),
    ).toEqual({ firstName: 'one_line' });
    // Nor a web address the mail program would offer as a link in the publisher's name.
    for (const firstName of ['Bitte https://tw-login.example', 'www.tw-login.example', 'HTTP://X'])
      expect(
        licensePersonErrors(
          { emailAddress: 'a@b.example', firstName, lastName1: 'Müller-Lüdenscheidt' },
          { ...codes, salutationRequired: false },
        ),
      ).toEqual({ firstName: 'no_link' });
    expect(
      licensePersonErrors(
        { emailAddress: 'a@b.example', firstName: 'J. R.', lastName1: "O'Neill-Www" },
        { ...codes, salutationRequired: false },
      ),
    ).toEqual({});
    // A name of invisible characters only (a right-to-left override, a zero-width space) is no name.
    expect(
      licensePersonErrors(
        { salutationCode: '0001', emailAddress: 'a@b.example', firstName: '\u202e', lastName1: ' \u200b ' },
        codes,
      ),
    ).toEqual({ firstName: 'required', lastName1: 'required' });
  });

  const settings = {
    requireRole: true,
    requireAcademicTitle: true,
    roles: [{ code: 'STUD', requiresAcademicYear: true }, { code: 'LEHR' }],
  };
  const opts = { salutationCodes: ['0001'], academicTitleCodes: ['0001'] };
  const good = {
    businessPartner: {
      salutationCode: '0001',
      titleAcademic: '0001',
      firstName: 'Ada',
      lastName1: 'Lovelace',
      company1: 'Uni',
    },
    role: 'LEHR',
  };

  it('accepts a complete form and needs salutation, names and company of at most 35 characters', () => {
    expect(acceptLicenseErrors(good, settings, opts)).toEqual({});
    expect(
      acceptLicenseErrors(
        {
          ...good,
          businessPartner: {
            ...good.businessPartner,
            salutationCode: '',
            company1: 'c'.repeat(36),
            firstName: 'f'.repeat(35),
          },
        },
        settings,
        opts,
      ),
    ).toEqual({
      salutationCode: 'required',
      company1: 'too_long',
    });
  });

  it('needs the academic title and the role only when the tenant requires them', () => {
    const bare = { businessPartner: { ...good.businessPartner, titleAcademic: null }, role: null };
    expect(acceptLicenseErrors(bare, settings, opts)).toEqual({
      titleAcademic: 'required',
      role: 'required',
    });
    expect(acceptLicenseErrors(bare, {}, opts)).toEqual({});
    expect(acceptLicenseErrors({ ...good, role: 'BOSS' }, settings, opts)).toEqual({ role: 'invalid' });
  });

  it('needs a 2-digit academic year when the chosen role demands it', () => {
    expect(acceptLicenseErrors({ ...good, role: 'STUD' }, settings, opts)).toEqual({
      academicYear: 'required',
    });
    expect(acceptLicenseErrors({ ...good, role: 'STUD', academicYear: '2024' }, settings, opts)).toEqual({
      academicYear: 'invalid',
    });
    expect(acceptLicenseErrors({ ...good, role: 'STUD', academicYear: '24' }, settings, opts)).toEqual({});
  });
});
