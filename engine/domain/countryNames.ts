/**
 * Countries named in a language, apart from engine/domain/language.ts so that the page every
 * screen loads does not carry them: the address views and country lists load them with their
 * screens (docs/testing.md "Speed and size"), the server's mails and documents import them.
 */
import { LOCALE_TABLE, LOCALES } from './locales';

/**
 * A country's name in a language ("Deutschland", "Germany") from its ISO 3166 code: the screens'
 * address views and country lists, the server's mails and documents. The code itself where the
 * runtime has no name for it.
 */
export function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Address lines a tenant file writes once for every language (a controller's, an authority's), with
 * a line that is only a country's name — in any of the portal's languages, or its code — named in
 * `locale` instead: "Deutschland" reads "Germany" in an English text. `countries` are the codes such
 * a line may name: by default those the portal's languages deliver to.
 */
export function addressLinesIn(
  lines: readonly string[],
  locale: string,
  countries: Iterable<string> = LOCALES.flatMap((known) => LOCALE_TABLE[known].deliveryCountries),
): string[] {
  const byName = new Map<string, string>();
  for (const code of countries)
    for (const name of [code, ...LOCALES.map((known) => countryName(code, known))])
      byName.set(name.trim().toLocaleLowerCase(), code);
  return lines.map((line) => {
    const code = byName.get(line.trim().toLocaleLowerCase());
    return code === undefined ? line : countryName(code, locale);
  });
}
