/**
 * The `privacy` section (docs/subscribers.md "Download my data"): the export's README is written from it, so
 * a tenant whose subscribers sign in is warned — never refused — until it has one; the schema checks
 * what it holds.
 */
import { describe, expect, it } from 'vitest';
import { formatIssue, validateTenantSource, type ValidationContext } from '../../tenant';
import { makeTenant, makeThemePreset } from '../support/builders';

const FILE = 'tenants/acme.json';
const ctx: ValidationContext = { knownTextKeys: new Set(), themePresets: { classic: makeThemePreset() } };
const validate = (tenant: object) => validateTenantSource(FILE, JSON.stringify(tenant, null, 2), ctx);

describe('the privacy section', () => {
  it('warns, without failing, when a tenant whose subscribers sign in has none', () => {
    const { privacy: _none, ...tenant } = makeTenant();
    const { issues, warnings, tenant: loaded } = validate(tenant);
    expect(issues).toEqual([]);
    expect(loaded?.id).toBe('acme');
    expect(warnings.map((w) => `${w.pointer} ${w.message}`)).toEqual([
      '/privacy no privacy section: subscribers who download their data are told neither who is responsible for it nor whom to ask (GDPR Art. 15(1))',
    ]);
    expect(warnings[0].hint).toContain('docs/subscribers.md "Download my data"');
  });

  it('does not warn with one, nor where nobody signs in to an account', () => {
    expect(validate(makeTenant()).warnings).toEqual([]);
    const { privacy: _none, ...tenant } = makeTenant();
    // Without any sign-in the validator refuses the file for its own reason; the privacy rule keeps quiet.
    const nobody = validate({ ...tenant, login: { magicLink: false, password: false } });
    expect(nobody.warnings.map((w) => w.pointer)).not.toContain('/privacy');
  });

  it('checks what the section holds: required parts, e-mail addresses, an http(s) address of the authority', () => {
    const broken = makeTenant({
      privacy: {
        controller: { name: '', addressLines: [] },
        contactEmail: 'not an address',
        supervisoryAuthority: { name: 'LfD', url: 'ftp://lfd.example' },
      },
    });
    const messages = validate(broken).issues.map(formatIssue).join('\n');
    expect(messages).toContain('/privacy/controller/name');
    expect(messages).toContain('/privacy/controller/addressLines');
    expect(messages).toContain('/privacy/contactEmail');
    expect(messages).toContain('/privacy/supervisoryAuthority/url');
    const missing = validate(makeTenant({ privacy: { contactEmail: 'a@b.example' } as never }));
    expect(missing.issues.map(formatIssue).join('\n')).toMatch(/controller|supervisoryAuthority/);
  });

  it('warns about a purpose given in one offered language only', () => {
    const tenant = makeTenant({
      privacy: { ...makeTenant().privacy!, purposes: { 'de-DE': 'Abo liefern.' } },
    });
    expect(validate(tenant).warnings.map((w) => w.pointer)).toEqual(['/privacy/purposes']);
  });
});
