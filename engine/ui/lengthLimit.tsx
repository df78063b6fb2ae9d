import { useTranslation } from '../core/translation';
import { textLength } from '../domain/fieldRules';

/**
 * A field's length rule: a field never drops what a person typed, it says the text is too
 * long. The portal's fields take `maxChars` instead of the browser's `maxLength`, which cuts a
 * typed or pasted text silently: the text stays whole and the field says, while it is typed, how
 * many characters are allowed. The forms refuse the same length on submit (engine/domain rules),
 * and the server answers 400, never truncating.
 */
export interface LengthLimit {
  /** Most characters the rule allows; more shows the too-long error at the field. */
  maxChars?: number;
  /**
   * The too-long error's text where the field has its own words for it: an order number's
   * (portal-core.md §5 "Error text asks for a valid order number"), then the digits it has.
   */
  tooLongKey?: TooLongKey;
}

export type TooLongKey = 'shell.tooLong' | 'shell.orderNumberTooLong';

/** How many characters a value has beyond the limit's, or 0. */
export function charsOver(value: unknown, maxChars: number | undefined): number {
  if (maxChars === undefined || typeof value !== 'string') return 0;
  return Math.max(0, textLength(value) - maxChars);
}

/** The too-long message at a field; rendered only when the value is over its limit. */
export function TooLongError({
  id,
  max,
  count,
  textKey = 'shell.tooLong',
}: {
  id: string;
  max: number;
  count: number;
  textKey?: TooLongKey;
}) {
  const { t } = useTranslation();
  return (
    <p id={id} className="form-error">
      {t(textKey, { max, count })}
    </p>
  );
}
