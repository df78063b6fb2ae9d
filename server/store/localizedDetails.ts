/**
 * Prose the order system writes (product names, editions, offer and article descriptions, the
 * words of a premium, issue and pending-order titles) in more than one language, so
 * every screen shows them in its own. A stored value may carry `translations`: per locale, the same
 * fields in that language, for example `{ "displayName": "Technikwelt Digital – Digital-Zugang",
 * "translations": { "en-GB": { "displayName": "Technikwelt Digital – Online access" } } }` in a
 * `details` jsonb, or a `translations` column beside a table's plain text columns (issues,
 * delivered issues, pending orders). The stores answer in the request's locale
 * (server/tenancy/requestLocale.ts); a field without a translation keeps the stored words.
 * Labels with a code (billing frequency, mix type, issue number) are formatted by the screens
 * instead (engine/account/labels.ts).
 *
 * The rule itself is the portal's too: engine/domain/language.ts.
 */
export {
  localizedDetails,
  localizedRow,
  type DeepPartial,
  type Translations,
} from '../../engine/domain/language';
