/**
 * The language a request names for what it records (server/events/eventLocale.ts): a body's
 * `locale`, then Accept-Language, only among the tenant's languages; none named is undefined, not
 * the tenant's default.
 */
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { namedRequestLocale } from '../../../server/tenancy/requestLocale';
import type { Locale } from '../../../engine/domain/locales';

const tenant = { locales: ['de-DE', 'en-GB'] as Locale[] };
const request = (acceptLanguage: string | undefined, body?: unknown) =>
  ({ body, get: (name: string) => (name === 'accept-language' ? acceptLanguage : undefined) }) as Request;

describe('namedRequestLocale', () => {
  it("gives the tenant's language a request names, the body's first", () => {
    expect(namedRequestLocale(request('en-GB'), tenant)).toBe('en-GB');
    expect(namedRequestLocale(request('en-US,de;q=0.5'), tenant)).toBe('en-GB');
    expect(namedRequestLocale(request('fr-FR,de-DE;q=0.8'), tenant)).toBe('de-DE');
    expect(namedRequestLocale(request('en-GB', { locale: 'de-DE' }), tenant)).toBe('de-DE');
    // A body's language the tenant does not offer is no wish; Accept-Language still counts.
    expect(namedRequestLocale(request('en-GB', { locale: 'fr-FR' }), tenant)).toBe('en-GB');
  });

  it('gives none where the request names none the tenant offers', () => {
    expect(namedRequestLocale(request(undefined), tenant)).toBeUndefined();
    expect(namedRequestLocale(request('fr-FR, *'), tenant)).toBeUndefined();
    expect(namedRequestLocale(request(undefined, { locale: 42 }), tenant)).toBeUndefined();
    expect(namedRequestLocale(request(undefined, 'not an object'), tenant)).toBeUndefined();
  });
});
