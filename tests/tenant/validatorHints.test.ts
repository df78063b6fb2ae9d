import { describe, expect, it } from 'vitest';
import {
  formatIssueWithHint,
  knownTextKeys,
  validateTenantSource,
  validateThemeSource,
  type ValidationContext,
} from '../../tenant';
import { contrastHint } from '../../tenant/contrastHint';
import { SUGGESTED_TEXT_KEYS } from '../../tenant/crossFieldRules';
import { closestTextKey, textKeyHint } from '../../tenant/didYouMean';
import { contrastFailures, contrastRatio } from '../../engine/domain/theme';
import { FEATURE_FLAGS } from '../../engine/domain/featureFlags';
import { makeTenant, makeThemePreset } from '../support/builders';

/** Validator hints: valid values instead of source files, fixes that can be done, the nearest key. */
const FILE = 'tenants/acme.json';
const ctx: ValidationContext = {
  knownTextKeys: new Set([
    'shell.logout',
    'shell.sessionExpired',
    'orders.filter',
    'orders.filterActive',
    'orders.filterInactive',
    'account.status.I',
    'account.status.IU',
    'login.title',
  ]),
  themePresets: { classic: makeThemePreset() },
};

function hintsOf(tenant: unknown): string[] {
  return validateTenantSource(FILE, JSON.stringify(tenant, null, 2), ctx).issues.map(
    (issue) => `${issue.pointer} ${issue.message}\n${issue.hint ?? ''}`,
  );
}

describe('hints list the valid values, never a source file', () => {
  it('lists every feature flag for an unknown feature, with the features a flag switches', () => {
    const [issue] = hintsOf(makeTenant({ features: ['faq', 'newsletter'] as never }));
    const [message, hint] = issue.split('\n');
    expect(message).toBe('/features/1 unknown feature "newsletter"');
    expect(hint.startsWith('use one of: ')).toBe(true);
    for (const flag of FEATURE_FLAGS) expect(hint).toContain(flag);
    expect(hint).not.toMatch(/engine\/|\.ts\b|\.json\b/);
  });

  it('lists the keys of the same feature for an unknown text key', () => {
    const [issue] = hintsOf(makeTenant({ texts: { 'de-DE': { 'orders.titel': 'Bestellungen' } } }));
    expect(issue).toBe(
      '/texts/de-DE/orders.titel unknown text key "orders.titel"\ntext keys of orders: orders.filter, orders.filterActive, orders.filterInactive',
    );
  });

  it('suggests for the first unknown text keys only, and names every one of them', () => {
    const texts = Object.fromEntries(
      Array.from({ length: SUGGESTED_TEXT_KEYS + 5 }, (_, i) => [`orders.titel${i}`, 'x']),
    );
    const issues = hintsOf(makeTenant({ texts: { 'de-DE': texts } }));
    expect(issues).toHaveLength(SUGGESTED_TEXT_KEYS + 5);
    expect(issues.slice(0, SUGGESTED_TEXT_KEYS).every((issue) => issue.includes('text keys of orders'))).toBe(
      true,
    );
    expect(issues.at(-1)).toBe(
      `/texts/de-DE/orders.titel${SUGGESTED_TEXT_KEYS + 4} unknown text key "orders.titel${SUGGESTED_TEXT_KEYS + 4}"\n`,
    );
  });

  it('lists the features that have texts when the key names none of them', () => {
    const [issue] = hintsOf(makeTenant({ texts: { 'de-DE': { 'newsletter.title': 'Newsletter' } } }));
    expect(issue).toBe(
      '/texts/de-DE/newsletter.title unknown text key "newsletter.title"\ntext keys start with a feature id and a dot; features with texts: account, login, orders, shell',
    );
  });

  it('names the closest keys first, at most 15, when a feature has many texts', () => {
    const hint = textKeyHint('orders.filterr', knownTextKeys());
    expect(hint).toMatch(/^closest text keys of orders \(\d+ in all\): orders\.filter, /);
    expect(hint.split(', ')).toHaveLength(16); // 15 keys and the "…"
  });

  it('lists the allowed settings of an object, however many', () => {
    const [issue] = hintsOf(makeTenant({ login: { magicLink: true, sessionIdleMinute: 30 } } as never));
    expect(issue).toMatch(
      /^\/login\/sessionIdleMinute unknown property "sessionIdleMinute". Did you mean "sessionIdleMinutes"\?\nrename it, or remove it \(allowed here: .*magicLink.*sessionIdleMinutes.*\)$/,
    );
  });
});

describe('contrast hints say what can still change', () => {
  it('asks for a darker primary when onPrimary is already white', () => {
    const [issue] = hintsOf(
      makeTenant({ theme: { preset: 'classic', tokens: { colors: { primary: '#5b9bd5' } } } }),
    );
    expect(issue).toBe(
      '/theme/tokens/colors/primary insufficient contrast between onPrimary (#ffffff) and primary (#5b9bd5): 2.96:1, WCAG AA needs at least 4.5:1\n' +
        'onPrimary is already white: make primary darker (contrast 2.96:1, needs 4.5:1), for example #487aa8',
    );
  });

  it('points at the colour the hint asks to change when the tenant set both', () => {
    const [issue] = hintsOf(
      makeTenant({
        theme: { preset: 'classic', tokens: { colors: { onPrimary: '#ffffff', primary: '#5b9bd5' } } },
      }),
    );
    expect(issue).toMatch(/^\/theme\/tokens\/colors\/primary insufficient contrast/);
    expect(issue).toContain('make primary darker');
  });

  it("suggests a colour that passes, as close to the operator's as it can", () => {
    expect(contrastRatio('#487aa8', '#ffffff')).toBeGreaterThanOrEqual(4.5);
    // One step (1 %) less dark would still fail: the example is the least change that passes.
    expect(contrastRatio('#4a7dac', '#ffffff')).toBeLessThan(4.5);
  });

  it('asks for a lighter text when the background is already black', () => {
    const [failure] = contrastFailures({
      colors: { ...makeThemePreset().colors, background: '#000000', text: '#333333' },
    });
    expect(contrastHint(failure)).toMatch(
      /^background is already black: make text lighter \(contrast 1\.\d\d:1, needs 4\.5:1\), for example #[0-9a-f]{6}$/,
    );
  });

  it('offers both ways with an example each when both colours can move', () => {
    const [failure] = contrastFailures({
      colors: { ...makeThemePreset().colors, onPrimary: '#e0e0e0', primary: '#707070' },
    });
    expect(contrastHint(failure)).toMatch(
      /^make onPrimary lighter \(for example #[0-9a-f]{6}\) or primary darker \(for example #[0-9a-f]{6}\)$/,
    );
  });

  it('says when no colour on one side can reach the ratio', () => {
    const [failure] = contrastFailures({
      colors: { ...makeThemePreset().colors, onPrimary: '#eeeeee', primary: '#6c8fb3' },
    });
    expect(contrastHint(failure)).toMatch(
      /^no onPrimary reaches 4\.5:1 on #6c8fb3: make primary darker \(contrast 2\.\d\d:1, needs 4\.5:1\), for example #[0-9a-f]{6}$/,
    );
  });

  it('gives theme preset files the same hint', () => {
    const preset = { ...makeThemePreset(), colors: { ...makeThemePreset().colors, mutedText: '#aaaaaa' } };
    const [issue] = validateThemeSource('themes/pale.json', JSON.stringify(preset, null, 2)).issues.map(
      formatIssueWithHint,
    );
    expect(issue).toMatch(
      /\/colors\/mutedText insufficient contrast .*\n {4}background is already white: make mutedText darker \(contrast 2\.\d\d:1, needs 4\.5:1\), for example #[0-9a-f]{6}$/,
    );
  });
});

describe('"did you mean" for text keys picks the nearest real key', () => {
  it.each([
    ['shell.logut', 'shell.logout'],
    ['shell.sesionExpird', 'shell.sessionExpired'],
    ['orders.filter.activ', 'orders.filterActive'],
    ['orders.filterinactive', 'orders.filterInactive'],
    ['account.status.UI', 'account.status.IU'],
  ])('"%s" -> "%s"', (input, expected) => {
    expect(closestTextKey(input, ctx.knownTextKeys!)).toBe(expected);
  });

  it('does not take a different word of the same feature for a typo ("orders.titel" is not "orders.filter")', () => {
    expect(closestTextKey('orders.titel', ctx.knownTextKeys!)).toBeUndefined();
  });

  it('answers the same whatever the order of the known keys', () => {
    const keys = [...ctx.knownTextKeys!];
    expect(closestTextKey('account.status.UI', keys.reverse())).toBe('account.status.IU');
  });

  it('finds the nearest among the real base texts', () => {
    expect(closestTextKey('shell.sesionExpired', knownTextKeys())).toBe('shell.sessionExpired');
    expect(closestTextKey('contact.headline', knownTextKeys())).toBe('contact.heading');
  });
});

describe('commands that refuse an invalid tenant file', () => {
  it('print every problem with its fix, as portal validate does', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { loadValidTenants } = await import('../../cli/commands/loadValidTenants');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'portal-refuse-'));
    const file = path.join(dir, 'acme.json');
    writeFileSync(file, JSON.stringify(makeTenant({ features: ['faq', 'cancelation'] as never }), null, 2));
    try {
      const error = await loadValidTenants([file]).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message.split('\n').slice(0, 3)).toEqual([
        '1 problem in tenant files:',
        expect.stringMatching(
          /acme\.json:\d+:\d+ \/features\/1 unknown feature "cancelation". Did you mean "cancellation"\?$/,
        ),
        expect.stringMatching(/^ {4}use one of: /),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
