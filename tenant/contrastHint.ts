/**
 * The fix for a failing colour pair: say which colour to change and to what, and never
 * ask for the impossible ("make onPrimary lighter" when onPrimary is already white).
 */
import {
  contrastRatio,
  formatContrastRatio,
  parseHexColor,
  relativeLuminance,
  type ContrastFailure,
} from '../engine/domain/theme';

const WHITE = '#ffffff';
const BLACK = '#000000';

function toHex(channels: number[]): string {
  return `#${channels.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The least change of `color` towards `target` (white or black) that reaches `minimum` against
 * `other`, keeping its hue as far as possible; undefined when even the target does not reach it.
 */
export function nearestPassingColor(
  color: string,
  target: string,
  other: string,
  minimum: number,
): string | undefined {
  const from = parseHexColor(color);
  const to = parseHexColor(target);
  for (let step = 1; step <= 100; step++) {
    const t = step / 100;
    const candidate = toHex(from.map((c, i) => c + (to[i] - c) * t));
    if (contrastRatio(candidate, other) >= minimum) return candidate;
  }
  return undefined;
}

const isColor = (value: string, hex: string) => value.toLowerCase() === hex;

/** Where each colour of a failing pair would move, and the nearest passing colour there, if any. */
function contrastFixes(failure: ContrastFailure) {
  const { foregroundColor, backgroundColor, minimum } = failure;
  const foregroundIsLighter = relativeLuminance(foregroundColor) > relativeLuminance(backgroundColor);
  // The lighter colour moves towards white, the darker towards black.
  const foregroundTarget = foregroundIsLighter ? WHITE : BLACK;
  const backgroundTarget = foregroundIsLighter ? BLACK : WHITE;
  const foregroundFix = isColor(foregroundColor, foregroundTarget)
    ? undefined
    : nearestPassingColor(foregroundColor, foregroundTarget, backgroundColor, minimum);
  const backgroundFix = isColor(backgroundColor, backgroundTarget)
    ? undefined
    : nearestPassingColor(backgroundColor, backgroundTarget, foregroundColor, minimum);
  return { foregroundTarget, backgroundTarget, foregroundFix, backgroundFix };
}

/**
 * The tokens the hint asks to change: a colour already at white or black, or one no value of which
 * passes, is not among them, unless neither side alone can pass.
 */
export function tokensToChange(failure: ContrastFailure): string[] {
  const { foregroundFix, backgroundFix } = contrastFixes(failure);
  const tokens = [
    ...(foregroundFix ? [failure.foreground] : []),
    ...(backgroundFix ? [failure.background] : []),
  ];
  return tokens.length ? tokens : [failure.foreground, failure.background];
}

/**
 * `make mutedText darker (for example #767676) or background lighter (for example …)`, or, when
 * one side cannot move further, `background is already white: make mutedText darker (contrast
 * 2.84:1, needs 4.5:1), for example #767676`.
 */
export function contrastHint(failure: ContrastFailure): string {
  const { foreground, background, foregroundColor, backgroundColor, minimum } = failure;
  const { foregroundTarget, backgroundTarget, foregroundFix, backgroundFix } = contrastFixes(failure);
  const word = (target: string) => (target === WHITE ? 'lighter' : 'darker');
  const name = (target: string) => (target === WHITE ? 'white' : 'black');
  const needs = `contrast ${formatContrastRatio(failure.ratio)}, needs ${minimum}:1`;

  if (foregroundFix && backgroundFix) {
    return `make ${foreground} ${word(foregroundTarget)} (for example ${foregroundFix}) or ${background} ${word(backgroundTarget)} (for example ${backgroundFix})`;
  }
  if (backgroundFix) {
    const why = isColor(foregroundColor, foregroundTarget)
      ? `${foreground} is already ${name(foregroundTarget)}`
      : `no ${foreground} reaches ${minimum}:1 on ${backgroundColor}`;
    return `${why}: make ${background} ${word(backgroundTarget)} (${needs}), for example ${backgroundFix}`;
  }
  if (foregroundFix) {
    const why = isColor(backgroundColor, backgroundTarget)
      ? `${background} is already ${name(backgroundTarget)}`
      : `no ${background} reaches ${minimum}:1 behind ${foregroundColor}`;
    return `${why}: make ${foreground} ${word(foregroundTarget)} (${needs}), for example ${foregroundFix}`;
  }
  // Neither side alone can reach it (two mid greys): both have to move apart.
  return `make ${foreground} ${word(foregroundTarget)} and ${background} ${word(backgroundTarget)} (${needs})`;
}
