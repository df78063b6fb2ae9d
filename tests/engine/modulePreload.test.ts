// @vitest-environment jsdom
/**
 * The engine's helper for lazy imports (engine/app/modulePreload.ts): a lazy screen's files are
 * asked for at once and once, its style sheets are applied before the screen's module runs, and a
 * style sheet that fails fails that import only.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { isStaleFileError } from '../../engine/domain/clientErrorKinds';

type Preload = typeof import('../../engine/app/modulePreload').__vitePreload;
let __vitePreload: Preload;
// Each test on a page of its own: the helper remembers what the page asked for.
beforeEach(async () => {
  vi.resetModules();
  ({ __vitePreload } = await import('../../engine/app/modulePreload'));
});

const importer = 'https://portal.example/t/acme/assets/index-abc.js';
const links = (rel: string) =>
  [...document.head.querySelectorAll<HTMLLinkElement>(`link[rel="${rel}"]`)].map((link) => link.href);
const linkTo = (href: string) =>
  [...document.head.querySelectorAll<HTMLLinkElement>('link')].find((link) => link.href === href)!;
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  document.head.innerHTML = '';
});

describe('the preload helper of lazy imports', () => {
  it("asks for a module's files beside it, each once, relative to the importing file", async () => {
    const loaded = await __vitePreload(async () => 'screen', ['./kit-1.js', './orders-1.js'], importer);
    expect(loaded).toBe('screen');
    await __vitePreload(async () => 'again', ['./kit-1.js'], importer);
    expect(links('modulepreload')).toEqual([
      'https://portal.example/t/acme/assets/kit-1.js',
      'https://portal.example/t/acme/assets/orders-1.js',
    ]);
    const link = linkTo('https://portal.example/t/acme/assets/kit-1.js');
    // Asked for as the module script itself is, so the browser uses what it preloaded.
    expect(link.crossOrigin).toBe('');
  });

  it('runs the module only once its style sheet is applied', async () => {
    let ran = false;
    const loading = __vitePreload(
      async () => {
        ran = true;
      },
      ['./card-2.css', './card-2.js'],
      importer,
    );
    await flush();
    expect(ran).toBe(false);
    expect(links('stylesheet')).toEqual(['https://portal.example/t/acme/assets/card-2.css']);
    linkTo('https://portal.example/t/acme/assets/card-2.css').dispatchEvent(new Event('load'));
    await loading;
    expect(ran).toBe(true);
  });

  it('fails the import whose style sheet did not load, and asks for it again on the next one', async () => {
    const css = 'https://portal.example/t/acme/assets/ecard-3.css';
    const failing = __vitePreload(async () => 'screen', ['./ecard-3.css'], importer);
    linkTo(css).dispatchEvent(new Event('error'));
    const failure = await failing.catch((error: unknown) => error);
    // The screen's error view offers a reload for it, as for a script file of an older build.
    expect(isStaleFileError(failure)).toBe(true);
    expect((failure as Error).message).toContain('ecard-3.css');
    expect(links('stylesheet')).toEqual([]);
    const retried = __vitePreload(async () => 'screen', ['./ecard-3.css'], importer);
    expect(links('stylesheet')).toEqual([css]);
    linkTo(css).dispatchEvent(new Event('load'));
    await expect(retried).resolves.toBe('screen');
  });

  it('does not ask again for what the page itself links: its style sheet, a preloaded file', async () => {
    document.head.innerHTML =
      '<link rel="modulepreload" href="https://portal.example/t/acme/assets/vendor-9.js">' +
      '<link rel="stylesheet" href="https://portal.example/t/acme/assets/index-abc.css">';
    await __vitePreload(async () => 'screen', ['./vendor-9.js', './index-abc.css', './faq-4.js'], importer);
    expect(links('modulepreload')).toEqual([
      'https://portal.example/t/acme/assets/vendor-9.js',
      'https://portal.example/t/acme/assets/faq-4.js',
    ]);
    expect(links('stylesheet')).toEqual(['https://portal.example/t/acme/assets/index-abc.css']);
  });

  it('runs a module without files at once', async () => {
    await expect(__vitePreload(async () => 42, undefined, importer)).resolves.toBe(42);
    expect(document.head.children).toHaveLength(0);
  });
});
