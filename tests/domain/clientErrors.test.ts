/**
 * Client error reports (engine/domain/clientErrors.ts, portal-core.md §9 "Error-reporting sample
 * rate"): what a report carries is scrubbed of personal data, paths lose their query and numbers,
 * and a script file of an older build is told apart from other failures.
 */
import { describe, expect, it } from 'vitest';
import {
  CLIENT_ERROR_LIMITS,
  clientErrorReport,
  reportPath,
  scrubbed,
} from '../../engine/domain/clientErrors';
import { isStaleFileError } from '../../engine/domain/staleBuild';

describe('client error reports', () => {
  it('replace e-mail addresses and long numbers, and keep a stack line and column', () => {
    expect(scrubbed('no subscription 4000123456 for anna.schmidt@technikwelt.example', 300)).toBe(
      'no subscription [number] for [email]',
    );
    expect(scrubbed('IBAN DE89 3704 0044 0532 0130 00 refused', 300)).toBe('IBAN DE[number] refused');
    expect(scrubbed('at render (index-DS7FvjgC.js:1:23456)', 300)).toBe(
      'at render (index-DS7FvjgC.js:1:23456)',
    );
    expect(scrubbed('x'.repeat(500), 300)).toHaveLength(300);
  });

  it('carry the path without query or fragment, numbers replaced', () => {
    expect(reportPath('/subscriptions/4000123456/business-partners/1000000001')).toBe(
      '/subscriptions/:param/business-partners/:param',
    );
    expect(reportPath('/login?p=secret-token#top')).toBe('/login');
    expect(reportPath(`/${'a'.repeat(50)}`)).toBe('/:param');
    expect(reportPath(`/${'faq/'.repeat(100)}`)).toHaveLength(CLIENT_ERROR_LIMITS.path);
  });

  it('build a report of any thrown value', () => {
    const error = new TypeError('Cannot read properties of undefined (reading "map")');
    expect(clientErrorReport(error, 'render', '/orders?x=1')).toEqual({
      kind: 'render',
      name: 'TypeError',
      message: 'Cannot read properties of undefined (reading "map")',
      stack: expect.stringContaining('TypeError'),
      path: '/orders',
    });
    expect(clientErrorReport('mail to bob@example.com failed', 'rejection', '/')).toEqual({
      kind: 'rejection',
      name: 'string',
      message: 'mail to [email] failed',
      path: '/',
    });
  });

  it('tell a file of an older build from other failures, in each browser’s words', () => {
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
