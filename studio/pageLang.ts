/**
 * The studio page's language, read once from `?lang=` (docs/operators.md "Operators: the studio"),
 * and the lookups of its words, shared by the editor's and the insights page's parts.
 */
import { insightsText, type InsightsTextKey } from './insightsTexts';
import { formatRate } from './insightWords';
import { studioLang, translate, type TextKey } from './texts';

export const lang = studioLang(window.location.search);

/** The editor's words. */
export const editorText = (key: TextKey, values?: Record<string, string | number>) =>
  translate(lang, key, values);

/** The insights page's words. */
export const insightsWords = (key: InsightsTextKey, values?: Record<string, string | number>) =>
  insightsText(lang, key, values);

/** A rate as the insights page writes it. */
export const percent = (rate: number | null | undefined) => formatRate(rate, lang);
