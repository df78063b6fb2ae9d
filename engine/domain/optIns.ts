import type { Locale } from './locales';
import { wordsIn } from './language';

/**
 * Opt-in rules of the opt-ins screen (account-flows.md §3 "Opt-in item", §4 "Opt-ins": "Save is
 * enabled only when a value differs from the loaded one; after save the loaded values reset").
 */
export interface OptInItem {
  type: string;
  /** On and confirmed. */
  value: boolean;
  /** Switched on, waiting for the double opt-in link. */
  pending?: boolean;
}

/** Whether the box shows ticked: on, or switched on and waiting for its confirmation. */
export const optInChecked = (item: OptInItem) => item.value || Boolean(item.pending);

/** The boxes as loaded, by type. */
export function optInChoices(items: readonly OptInItem[]): Record<string, boolean> {
  return Object.fromEntries(items.map((item) => [item.type, optInChecked(item)]));
}

/** The opt-in payload (§3 "the list of changed items"): each type whose box differs from the loaded one, in the loaded order. */
export function changedOptIns(
  loaded: readonly OptInItem[],
  chosen: Readonly<Record<string, boolean>>,
): Array<{ type: string; value: boolean }> {
  return loaded.flatMap((item) => {
    const value = chosen[item.type];
    return value === undefined || value === optInChecked(item) ? [] : [{ type: item.type, value }];
  });
}

/** §4: save is enabled only when something differs. */
export const optInsChanged = (loaded: readonly OptInItem[], chosen: Readonly<Record<string, boolean>>) =>
  changedOptIns(loaded, chosen).length > 0;

/**
 * The name of an opt-in, the same on the screen and in the double opt-in e-mail: the
 * tenant's label of its type (tenant file `optIns.types`) in the language shown, else the order
 * system's description in it (`{"de-DE": …, "en-GB": …}`, or words already in that language),
 * else the type's code.
 */
export function optInName(
  tenantTypes:
    ReadonlyArray<{ type: string; description?: Readonly<Partial<Record<Locale, string>>> }> | undefined,
  item: { type: string; description?: string | Readonly<Partial<Record<string, string>>> | null },
  locale: string,
): string {
  const label = wordsIn(tenantTypes?.find((type) => type.type === item.type)?.description, locale);
  const described =
    typeof item.description === 'string' ? item.description : wordsIn(item.description ?? undefined, locale);
  return label || described || item.type;
}
