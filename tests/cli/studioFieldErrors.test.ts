import { describe, expect, it } from 'vitest';
import { issuesToErrorSchema, pointerSegments, type StudioIssue } from '../../studio/fieldErrors';
import { validateTenantSource } from '../../tenant';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const issue = (pointer: string, message: string, extra: Partial<StudioIssue> = {}): StudioIssue => ({
  file: 'tenants/x.json',
  line: 1,
  column: 1,
  pointer,
  message,
  ...extra,
});

describe('studio: validator issues at their fields (JSON pointer → rjsf extraErrors)', () => {
  it('puts an issue under the field its pointer names, with its fix after the message', () => {
    expect(
      issuesToErrorSchema([
        issue('/theme/tokens/colors/primary', 'insufficient contrast', { hint: 'make primary darker' }),
      ]),
    ).toEqual({
      theme: {
        tokens: { colors: { primary: { __errors: ['insufficient contrast — make primary darker'] } } },
      },
    });
  });

  it('maps array indices and unescapes ~1 and ~0 in keys', () => {
    expect(pointerSegments('/texts/de-DE/a~1b~0c')).toEqual(['texts', 'de-DE', 'a/b~c']);
    expect(issuesToErrorSchema([issue('/hosts/1', 'bad host')])).toEqual({
      hosts: { 1: { __errors: ['bad host'] } },
    });
  });

  it('collects several issues of one field, and puts whole-file issues at the root', () => {
    expect(issuesToErrorSchema([issue('/name', 'one'), issue('/name', 'two'), issue('', 'syntax')])).toEqual({
      name: { __errors: ['one', 'two'] },
      __errors: ['syntax'],
    });
  });

  it('keeps only the issues of the tab on screen, and never warnings', () => {
    const issues = [
      issue('/name', 'name problem'),
      issue('/login/password', 'login problem'),
      issue('/texts/en-GB/x.y', 'missing translation', { severity: 'warning' }),
    ];
    expect(issuesToErrorSchema(issues, new Set(['name', 'texts']))).toEqual({
      name: { __errors: ['name problem'] },
    });
  });

  it("places the real validator's URL problem at the logoTargetUrl field in its own words", () => {
    const source = readFileSync(
      path.resolve(import.meta.dirname, '../../tenants/technikwelt.json'),
      'utf8',
    ).replace(
      '"logoTargetUrl": "https://www.technikwelt.example/"',
      '"logoTargetUrl": "www.technikwelt.example"',
    );
    const { issues } = validateTenantSource('tenants/technikwelt.json', source);
    const errors = issuesToErrorSchema(issues) as { logoTargetUrl?: { __errors: string[] } };
    expect(errors.logoTargetUrl?.__errors[0]).toContain(
      '"www.technikwelt.example" does not look like a valid URL',
    );
  });

  it('places a missing required setting at its own input, not over its section or the whole form', () => {
    const tenant = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, '../../tenants/technikwelt.json'), 'utf8'),
    ) as { name?: string; contact: { fallbackEmail?: string } };
    delete tenant.name;
    delete tenant.contact.fallbackEmail;
    const { issues } = validateTenantSource('tenants/technikwelt.json', JSON.stringify(tenant, null, 2));
    const errors = issuesToErrorSchema(issues) as {
      __errors?: string[];
      name?: { __errors: string[] };
      contact?: { __errors?: string[]; fallbackEmail?: { __errors: string[] } };
    };
    expect(errors.name?.__errors[0]).toContain('missing required property "name"');
    expect(errors.contact?.fallbackEmail?.__errors[0]).toContain('missing required property "fallbackEmail"');
    expect([errors.__errors, errors.contact?.__errors]).toEqual([undefined, undefined]);
  });
});
