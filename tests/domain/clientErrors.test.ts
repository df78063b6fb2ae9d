/**
 * Client error reports (engine/domain/clientErrors.ts, engine/domain/clientErrorKinds.ts;
 * portal-core.md §9 "Error-reporting sample rate"): what a report carries is scrubbed of personal
 * data in every browser's stack format, in one pass whatever its length; paths lose their query
 * and numbers; a script file that did not load is told apart from other failures.
 */
import { describe, expect, it } from 'vitest';
import {
  CLIENT_ERROR_LIMITS,
  clientErrorReport,
  reportPath,
  scrubbed,
} from '../../engine/domain/clientErrors';
import { isStaleFileError } from '../../engine/domain/clientErrorKinds';

const all = (text: string) => scrubbed(text, 10_000);

describe('client error reports', () => {
  it('replace e-mail addresses, also URL-encoded, and long numbers', () => {
    expect(all('no subscription 4000123456 for anna.schmidt@technikwelt.example, sorry')).toBe(
      'no subscription [number] for [email], sorry',
    );
    expect(all('IBAN DE89 3704 0044 0532 0130 00 refused')).toBe('IBAN DE[number] refused');
    expect(all('call +49 (0)30 123-4567')).toBe('call +49 (0)[number]');
    expect(all('born 1984-03-07')).toBe('born [number]');
    expect(all('mailto:anna%40example.de')).toBe('[email]');
  });

  it('keep the files, lines and columns of Chromium’s, Firefox’s and Safari’s stacks', () => {
    const chromium = '    at OrdersList (https://portal.example/t/x/assets/index-DS7FvjgC.js:1:23456)';
    const firefox = 'OrdersList@https://portal.example/t/x/assets/index-DS7FvjgC.js:1:23456';
    const safari = '@https://portal.example/t/x/assets/index-DS7FvjgC.js:1:23456';
    for (const frame of [chromium, firefox, safari]) expect(all(frame)).toBe(frame);
  });

  it('drop the query and fragment of every URL, keeping a frame’s position', () => {
    expect(
      all(
        'fetch https://portal.example/t/x/renewal?orderNumber=4000123456&lastName1=Schmidt&email=anna%40ex.de failed',
      ),
    ).toBe('fetch https://portal.example/t/x/renewal?… failed');
    expect(all('at https://portal.example/t/x/login?p=secret-token:1:2')).toBe(
      'at https://portal.example/t/x/login?…:1:2',
    );
    expect(all('/login#p=secret')).toBe('/login?…');
  });

  it('replace quoted input a parser echoes', () => {
    expect(all(`Unexpected token 'A', "Anna Schmidt, Hauptstr. 5" is not valid JSON`)).toBe(
      `Unexpected token 'A', "…" is not valid JSON`,
    );
  });

  it('cut to the limit and leave nothing the API refuses', () => {
    expect(scrubbed('x'.repeat(500), 300)).toHaveLength(300);
    expect(scrubbed(`a\u0000b\u001bc\td`, 300)).toBe('abc\td');
    // A cut through a surrogate pair leaves no half of it.
    expect(scrubbed(`${'x'.repeat(9)}😀`, 10)).toBe('x'.repeat(9));
  });

  it('take one pass, however long and however made the text', () => {
    for (const text of [
      'a'.repeat(1_000_000),
      `${'a.'.repeat(500_000)}@`,
      '1-'.repeat(500_000),
      '"'.repeat(1_000_000),
    ]) {
      const started = performance.now();
      scrubbed(text, CLIENT_ERROR_LIMITS.stack);
      // Generous: a pass over the cut text takes well under a millisecond; a quadratic one seconds.
      expect(performance.now() - started).toBeLessThan(200);
    }
  });

  it('carry the path without query or fragment, numbers and addresses replaced', () => {
    expect(reportPath('/subscriptions/4000123456/business-partners/1000000001')).toBe(
      '/subscriptions/:param/business-partners/:param',
    );
    expect(reportPath('/login?p=secret-token#top')).toBe('/login');
    expect(reportPath('/users/anna@example.de')).toBe('/users/:param');
    expect(reportPath(`/${'a'.repeat(50)}`)).toBe('/:param');
    expect(reportPath(`/${'faq/'.repeat(100)}`)).toHaveLength(CLIENT_ERROR_LIMITS.path);
  });

  it('build a report of any thrown value', () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'map')");
    expect(clientErrorReport(error, 'render', '/orders?x=1')).toEqual({
      kind: 'render',
      name: 'TypeError',
      message: "Cannot read properties of undefined (reading 'map')",
      stack: expect.stringContaining('TypeError'),
      path: '/orders',
    });
    expect(clientErrorReport('mail to bob@example.com failed', 'rejection', '/')).toEqual({
      kind: 'rejection',
      name: 'string',
      message: 'mail to [email] failed',
      path: '/',
    });
    expect(clientErrorReport(Object.create(null), 'rejection', '/')).toMatchObject({ message: 'object' });
  });

  it('tell a script file that did not load from other failures, in each browser’s words', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: https://portal.example/assets/FaqScreen-abc.js',
      'error loading dynamically imported module: https://portal.example/assets/FaqScreen-abc.js',
      'Importing a module script failed.',
    ])
      expect(isStaleFileError(new TypeError(message))).toBe(true);
    expect(isStaleFileError(new TypeError('Failed to fetch'))).toBe(false);
    expect(isStaleFileError('Importing a module script failed.')).toBe(false);
    const stale = new TypeError('Failed to fetch dynamically imported module: /assets/FaqScreen-abc.js');
    expect(clientErrorReport(stale, 'render', '/faq').kind).toBe('chunk');
    expect(clientErrorReport(stale, 'rejection', '/faq').kind).toBe('chunk');
  });
});
