/**
 * Theme tokens (docs/architecture.md "The folders": `themes/`, CONVENTIONS.md rule 8): a tenant picks a
 * preset from themes/ and may override single tokens; the result becomes CSS custom properties that the
 * engine's components use exclusively. Pure TypeScript: the validator, the build and the browser share it.
 */
import type { ThemePreset } from '../../schemas/generated/theme';

/** The resolved tokens of a tenant: a preset without its `$schema` pointer, overrides applied. */
export type ThemeTokens = Omit<ThemePreset, '$schema'>;

/** Token groups that become CSS custom properties, with the prefix of their variable names. */
export const TOKEN_GROUPS = {
  colors: 'color',
  fonts: 'font',
  radii: 'radius',
  spacing: 'space',
} as const;

export type TokenGroup = keyof typeof TOKEN_GROUPS;

/** What a tenant file may override: any single token of any group (never the preset's name). */
export type ThemeTokenOverrides = { [G in TokenGroup]?: Partial<ThemeTokens[G]> };

/** The `theme` block of a tenant file. */
export interface TenantTheme {
  preset: string;
  tokens?: ThemeTokenOverrides;
}

/** WCAG 2.x level AA minimum contrast for normal-size text. */
export const WCAG_AA_MIN_CONTRAST = 4.5;

/** WCAG 2.x 1.4.11: a graphic that carries meaning (a status dot) against what it sits on. */
export const WCAG_NON_TEXT_MIN_CONTRAST = 3;

/**
 * An open invoice's dot (portal-core.md §4 "O indigo") where a preset names no `open` colour: the
 * token is optional, so a preset written before it still validates.
 */
export const DEFAULT_OPEN_COLOR = '#4338ca';

export type ColorToken = keyof ThemeTokens['colors'];

export interface ContrastPair {
  foreground: ColorToken;
  background: ColorToken;
  minimum: number;
}

/**
 * The colour pairs the engine draws text and status dots with; each must reach WCAG AA. Validation
 * of presets and tenant overrides checks exactly these, and the studio shows them at each colour.
 */
export const CONTRAST_PAIRS: readonly ContrastPair[] = [
  { foreground: 'text', background: 'background', minimum: WCAG_AA_MIN_CONTRAST },
  { foreground: 'text', background: 'surface', minimum: WCAG_AA_MIN_CONTRAST },
  { foreground: 'onPrimary', background: 'primary', minimum: WCAG_AA_MIN_CONTRAST },
  { foreground: 'link', background: 'background', minimum: WCAG_AA_MIN_CONTRAST },
  { foreground: 'mutedText', background: 'background', minimum: WCAG_AA_MIN_CONTRAST },
  // The status dots of the badges (engine/ui/styles.css `.badge-*::before`), on cards.
  { foreground: 'success', background: 'surface', minimum: WCAG_NON_TEXT_MIN_CONTRAST },
  { foreground: 'warning', background: 'surface', minimum: WCAG_NON_TEXT_MIN_CONTRAST },
  { foreground: 'error', background: 'surface', minimum: WCAG_NON_TEXT_MIN_CONTRAST },
  { foreground: 'info', background: 'surface', minimum: WCAG_NON_TEXT_MIN_CONTRAST },
  { foreground: 'open', background: 'surface', minimum: WCAG_NON_TEXT_MIN_CONTRAST },
];

/** The preset with the tenant's overrides merged in, group by group. */
export function resolveThemeTokens(tenantTheme: TenantTheme | undefined, preset: ThemePreset): ThemeTokens {
  const overrides = tenantTheme?.tokens ?? {};
  return {
    name: preset.name,
    colors: { open: DEFAULT_OPEN_COLOR, ...preset.colors, ...definedOnly(overrides.colors) },
    fonts: { ...preset.fonts, ...definedOnly(overrides.fonts) },
    radii: { ...preset.radii, ...definedOnly(overrides.radii) },
    spacing: { ...preset.spacing, ...definedOnly(overrides.spacing) },
  };
}

function definedOnly<T extends object>(values: T | undefined): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/** `onPrimary` -> `on-primary`. */
function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/** The custom property of a token: `cssVariableName('colors', 'onPrimary')` is `--color-on-primary`. */
export function cssVariableName(group: TokenGroup, token: string): string {
  return `--${TOKEN_GROUPS[group]}-${kebabCase(token)}`;
}

/**
 * The schema only admits plain colour, length and font-family values; this is the second line of
 * defence because the CSS is inlined into a <style> element of index.html: characters that could
 * end the declaration, the rule or the element are dropped.
 */
function cssValue(value: string): string {
  return value.replace(/[;{}<>\\]/g, '').trim();
}

/** `:root{--color-primary:#1b3a6b;…;--font-body:…;--radius-card:…;--space-unit:…}` */
export function themeToCss(tokens: ThemeTokens): string {
  const declarations: string[] = [];
  for (const group of Object.keys(TOKEN_GROUPS) as TokenGroup[]) {
    for (const [token, value] of Object.entries(tokens[group])) {
      declarations.push(`${cssVariableName(group, token)}:${cssValue(String(value))}`);
    }
  }
  return `:root{${declarations.join(';')}}`;
}

/** Parses #rrggbb (or #rgb) into 0..255 channels; throws on anything else. */
export function parseHexColor(hex: string): [number, number, number] {
  const match = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!match) throw new Error(`"${hex}" is not a #rrggbb colour`);
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG 2.x relative luminance of an sRGB colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = parseHexColor(hex).map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio (1 to 21) of two colours, independent of their order. */
export function contrastRatio(hexA: string, hexB: string): number {
  const a = relativeLuminance(hexA);
  const b = relativeLuminance(hexB);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

export interface ContrastFailure extends ContrastPair {
  foregroundColor: string;
  backgroundColor: string;
  ratio: number;
}

/**
 * The CONTRAST_PAIRS that the tokens fail, in the order of the list. A pair with a colour that is
 * not #rrggbb is not judged: the schema says what is wrong with the colour, and the other pairs
 * are judged all the same, so an operator sees every mistake at once.
 */
export function contrastFailures(tokens: Pick<ThemeTokens, 'colors'>): ContrastFailure[] {
  const failures: ContrastFailure[] = [];
  const wellFormed = (color: unknown): color is string =>
    typeof color === 'string' && /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.test(color.trim());
  for (const pair of CONTRAST_PAIRS) {
    const foregroundColor = tokens.colors[pair.foreground];
    const backgroundColor = tokens.colors[pair.background];
    if (!wellFormed(foregroundColor) || !wellFormed(backgroundColor)) continue;
    const ratio = contrastRatio(foregroundColor, backgroundColor);
    if (ratio < pair.minimum) failures.push({ ...pair, foregroundColor, backgroundColor, ratio });
  }
  return failures;
}

/** A ratio for people: rounded down to two decimals so 4.497 never reads as a passing 4.50. */
export function formatContrastRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}
