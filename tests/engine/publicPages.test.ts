import { describe, expect, it } from 'vitest';
import { categoryFilter, groupFaq } from '../../engine/features/faq/faqModel';
import { linkForPath, withUserId } from '../../engine/features/external-page/externalLinks';
import { contactErrorKey } from '../../engine/features/contact/contactErrors';
import { buildRoutes } from '../../engine/app/router';

const entry = (id: string, category?: string) => ({
  id,
  category,
  title: { 'de-DE': id },
  content: { 'de-DE': id },
});

describe('FAQ grouping (portal-core.md §2 "FAQ")', () => {
  const categories = [
    { id: 'b', title: { 'de-DE': 'B' } },
    { id: 'a', title: { 'de-DE': 'A' } },
  ];
  it('groups by the tenant category order, general questions last, empty groups dropped', () => {
    const groups = groupFaq([entry('1', 'a'), entry('2'), entry('3', 'b'), entry('4', 'a')], categories, []);
    expect(groups.map((g) => [g.id, g.entries.map((e) => e.id)])).toEqual([
      ['b', ['3']],
      ['a', ['1', '4']],
      ['general', ['2']],
    ]);
  });

  it('filters by one or many categories, repeated or comma-separated', () => {
    expect(categoryFilter('?category=a&category=b')).toEqual(['a', 'b']);
    expect(categoryFilter('?category=a,general')).toEqual(['a', 'general']);
    expect(groupFaq([entry('1', 'a'), entry('2')], categories, ['general']).map((g) => g.id)).toEqual([
      'general',
    ]);
  });
});

describe('external navigation links (portal-core.md §2 catch-all)', () => {
  const links = [
    { text: { 'de-DE': 'E-Paper' }, url: 'https://e.example/r?uid=-suid-&x=-suid-' },
    { text: { 'de-DE': 'Mein Archiv', 'en-GB': 'My archive' }, url: 'https://a.example/' },
  ];
  it('finds the link whose text equals the path, decoded', () => {
    expect(linkForPath(links, '/E-Paper')?.url).toContain('e.example');
    expect(linkForPath(links, '/Mein%20Archiv')?.url).toBe('https://a.example/');
    expect(linkForPath(links, '/e-paper')).toBeUndefined();
    expect(linkForPath(links, '/%E0%A4%A')).toBeUndefined();
  });

  it('finds a link by its text in any locale, so a link shared in one language opens in the other', () => {
    expect(linkForPath(links, '/My%20archive')?.url).toBe('https://a.example/');
  });

  it('replaces every -suid- with the user id, and leaves the URL alone without one', () => {
    expect(withUserId(links[0].url, 'u 1')).toBe('https://e.example/r?uid=u%201&x=u%201');
    expect(withUserId(links[0].url, undefined)).toBe(links[0].url);
  });

  it('puts the catch-all last, once, whether or not the feature is on', () => {
    for (const features of [[], ['external-navigation']]) {
      const children = buildRoutes(features)[0].children!;
      expect(children.filter((route) => route.path === '*')).toHaveLength(1);
      expect(children.at(-1)!.path).toBe('*');
    }
  });
});

describe('contact error messages (portal-core.md §8)', () => {
  it('maps each link result to its message', () => {
    expect(contactErrorKey({ status: 'already_linked', maskedEmail: 'a***@b' })).toBe(
      'contact.errorSubscriptionAlreadyLinked',
    );
    expect(contactErrorKey({ status: 'confirm_email', maskedEmail: 'a***@b' })).toBe(
      'contact.signInLinkSent',
    );
    expect(contactErrorKey({ status: 'no_email_on_record' })).toBe('contact.errorNoEmailOnRecord');
    expect(contactErrorKey({ status: 'verification_failed', method: 'zip' })).toBe(
      'contact.errorInvalidZipcode',
    );
    expect(contactErrorKey({ status: 'verification_failed', method: 'order_number_name_zip' })).toBe(
      'contact.errorInvalidNameAndZipcode',
    );
    expect(contactErrorKey({ status: 'verification_failed', method: 'bp_number_zip' })).toBe(
      'contact.errorInvalidBpNumberAndZipcode',
    );
    expect(contactErrorKey({ status: 'both_found_bp' })).toBe('contact.errorBpBothFound');
    expect(contactErrorKey({ status: 'email_required' })).toBe('contact.errorEmailRequired');
    expect(contactErrorKey({ status: 'something' })).toBe('contact.errorUnknown');
    expect(contactErrorKey(undefined)).toBe('contact.errorUnknown');
  });
});
