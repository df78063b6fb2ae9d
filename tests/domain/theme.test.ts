import { describe, expect, it } from 'vitest';
import {
  CONTRAST_PAIRS,
  DEFAULT_OPEN_COLOR,
  contrastFailures,
  contrastRatio,
  cssVariableName,
  formatContrastRatio,
  resolveThemeTokens,
  themeToCss,
} from '../../engine/domain/theme';
import { makeThemePreset } from '../support/builders';

describe('contrastRatio', () => {
  it('is 21:1 for black on white and 1:1 for a colour on itself', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#1b3a6b', '#1b3a6b')).toBe(1);
  });

  it('does not depend on the order of the colours', () => {
    expect(contrastRatio('#ffffff', '#00756a')).toBe(contrastRatio('#00756a', '#ffffff'));
  });

  it('follows WCAG relative luminance (grey #777777 just fails AA on white)', () => {
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('accepts short and upper-case hex colours and refuses other values', () => {
    expect(contrastRatio('#FFF', '#000')).toBeCloseTo(21, 5);
    expect(() => contrastRatio('red', '#000000')).toThrow('"red" is not a #rrggbb colour');
  });
});

describe('formatContrastRatio', () => {
  it('rounds down so a failing ratio never reads as passing', () => {
    expect(formatContrastRatio(4.4999)).toBe('4.49:1');
    expect(formatContrastRatio(21)).toBe('21.00:1');
  });
});

describe('CONTRAST_PAIRS and contrastFailures', () => {
  it('check the text pairs the engine draws, and the status dots on cards, each against WCAG AA', () => {
    expect(CONTRAST_PAIRS.map((p) => `${p.foreground}/${p.background} ${p.minimum}`)).toEqual([
      'text/background 4.5',
      'text/surface 4.5',
      'onPrimary/primary 4.5',
      'link/background 4.5',
      'mutedText/background 4.5',
      'success/surface 3',
      'warning/surface 3',
      'error/surface 3',
      'info/surface 3',
      'open/surface 3',
    ]);
  });

  it("hold the default indigo of an open invoice's dot against a dark surface", () => {
    const preset = makeThemePreset();
    const dark = resolveThemeTokens(
      { preset: 'test', tokens: { colors: { surface: '#1a1a2e', text: '#f5f5f5' } } },
      preset,
    );
    const failures = contrastFailures(dark).filter((f) => f.foreground === 'open');
    expect(failures.map((f) => [f.foregroundColor, f.backgroundColor, formatContrastRatio(f.ratio)])).toEqual(
      [['#4338ca', '#1a1a2e', '2.15:1']],
    );
    const lighter = resolveThemeTokens(
      { preset: 'test', tokens: { colors: { surface: '#1a1a2e', text: '#f5f5f5', open: '#a5b4fc' } } },
      preset,
    );
    expect(contrastFailures(lighter).filter((f) => f.foreground === 'open')).toEqual([]);
  });

  it('name each failing pair with its colours and ratio', () => {
    const preset = makeThemePreset();
    const failures = contrastFailures({ colors: { ...preset.colors, link: '#8899aa' } });
    expect(
      failures.map((f) => [
        f.foreground,
        f.background,
        f.foregroundColor,
        f.backgroundColor,
        formatContrastRatio(f.ratio),
      ]),
    ).toEqual([['link', 'background', '#8899aa', '#ffffff', '2.92:1']]);
  });
});

describe('resolveThemeTokens', () => {
  it('merges the tenant overrides into the preset, group by group, without changing the preset', () => {
    const preset = makeThemePreset();
    const tokens = resolveThemeTokens(
      { preset: 'test', tokens: { colors: { primary: '#7a1f2b' }, spacing: { unit: '0.5rem' } } },
      preset,
    );
    expect(tokens.colors).toEqual({ open: DEFAULT_OPEN_COLOR, ...preset.colors, primary: '#7a1f2b' });
    expect(tokens.spacing).toEqual({ unit: '0.5rem' });
    expect(tokens.fonts).toEqual(preset.fonts);
    expect(preset.colors.primary).toBe('#1b3a6b');
  });

  it('drops the preset file pointer', () => {
    const tokens = resolveThemeTokens(undefined, {
      ...makeThemePreset(),
      $schema: '../schemas/theme.schema.json',
    });
    expect(Object.keys(tokens)).toEqual(['name', 'colors', 'fonts', 'radii', 'spacing']);
  });
});

describe('themeToCss', () => {
  it('writes one kebab-case custom property per token on :root', () => {
    expect(themeToCss(resolveThemeTokens(undefined, makeThemePreset()))).toBe(
      ':root{--color-open:#4338ca;--color-primary:#1b3a6b;--color-on-primary:#ffffff;--color-background:#ffffff;--color-surface:#ffffff;' +
        '--color-text:#1c1c1c;--color-muted-text:#595959;--color-border:#d8d3c4;--color-link:#1b3a6b;--color-success:#2e6b30;' +
        '--color-warning:#8a5300;--color-error:#b02a1f;--color-info:#1d5a87;--font-body:Georgia, serif;--font-heading:Georgia, serif;' +
        '--radius-card:2px;--radius-button:2px;--space-unit:8px}',
    );
  });

  it('cannot be used to break out of the inline style element', () => {
    const preset = makeThemePreset({
      fonts: { body: 'x;}</style><script>alert(1)</script>', heading: 'serif' },
    });
    const css = themeToCss(resolveThemeTokens(undefined, preset));
    expect(css).not.toMatch(/<|>|;}/);
    expect(css).toContain('--font-body:x/stylescriptalert(1)/script;');
  });

  it('names variables after their group and token', () => {
    expect(cssVariableName('colors', 'mutedText')).toBe('--color-muted-text');
    expect(cssVariableName('radii', 'button')).toBe('--radius-button');
    expect(cssVariableName('spacing', 'unit')).toBe('--space-unit');
  });
});
