/**
 * README.txt of the "Download my data" ZIP (docs/subscribers.md "Download my data"), in the language the
 * export was asked in. Beside the copy of the data (GDPR Art. 15(3)) the subscriber is owed the
 * information of Art. 15(1) — purposes, categories, recipients, retention, the rights to
 * rectification, erasure, restriction and objection, the right to complain and to which authority,
 * the source — and whom to ask (the controller and its data protection contact, Art. 13(1)(a), (b)).
 * They come from the tenant's `privacy` section; what it leaves out gets general wording, and a
 * tenant without the section names its invoice publisher (else its own name) and its customer
 * service, so the README never sends a subscriber nowhere.
 */
import type { TenantWithDefaults } from '../../schemas/generated/tenant';
import { formatDateTime } from '../../engine/domain/dates';
import { wordsIn } from '../../engine/domain/language';
import { addressLinesIn } from '../../engine/domain/countryNames';
import { textsIn } from '../texts/serverTexts';

type ReadmeTenant = Pick<TenantWithDefaults, 'name' | 'contact' | 'privacy' | 'invoice'>;

/** The page the export was asked on, by the route id of engine/domain/dataExport.ts. */
export type ExportPage = 'sso-profile' | 'business-partners';

/** A heading underlined the way the README's title is, so it reads as a section in any text viewer. */
const section = (heading: string, body: string) => `${heading}\n${'-'.repeat(heading.length)}\n\n${body}\n`;

export function exportReadme(
  tenant: ReadmeTenant,
  locale: string,
  opts: { date: Date; page: ExportPage },
): string {
  const t = textsIn(locale, 'data-export');
  const privacy = tenant.privacy;
  const publisher = tenant.invoice?.publisher;
  const controller = privacy?.controller ?? {
    name: publisher?.name ?? tenant.name,
    addressLines: publisher?.addressLines ?? [],
  };
  const contactEmail = privacy?.contactEmail ?? tenant.contact.email ?? tenant.contact.fallbackEmail;
  const own = (words: Partial<Record<string, string>> | undefined, fallback: string) =>
    wordsIn(words, locale) ?? t(fallback);

  const authority = privacy?.supervisoryAuthority;
  const complain = authority
    ? [
        t('readme.authority.intro', { controller: controller.name }),
        '',
        authority.name,
        ...addressLinesIn(authority.addressLines ?? [], locale),
        ...(authority.url ? [authority.url] : []),
      ].join('\n')
    : t('readme.authority.default', { controller: controller.name });

  // Underlined to its length, which the publisher's name sets.
  const title = t('readme.title', { tenant: tenant.name });
  return [
    `${title}\n${'='.repeat(title.length)}\n`,
    t('readme.intro', {
      tenant: tenant.name,
      date: formatDateTime(opts.date, locale, 'UTC'),
      page: t(`page.${opts.page}`),
    }),
    t('readme.files'),
    t('readme.others'),
    t('readme.more', { contact: contactEmail }),
    section(
      t('readme.controller.heading'),
      [
        t('readme.controller.intro'),
        '',
        controller.name,
        // One text for every language in the tenant file: its country line in the README's.
        ...addressLinesIn(controller.addressLines, locale),
        '',
        t('readme.contact', { email: contactEmail }),
        ...(privacy?.dpoEmail ? [t('readme.dpo', { email: privacy.dpoEmail })] : []),
      ].join('\n'),
    ),
    section(t('readme.purposes.heading'), own(privacy?.purposes, 'readme.purposes.default')),
    section(t('readme.categories.heading'), t('readme.categories.text')),
    section(t('readme.recipients.heading'), own(privacy?.recipients, 'readme.recipients.default')),
    section(t('readme.retention.heading'), own(privacy?.retention, 'readme.retention.default')),
    section(t('readme.source.heading'), t('readme.source.text')),
    section(t('readme.rights.heading'), t('readme.rights.text', { email: contactEmail })),
    section(t('readme.authority.heading'), complain),
  ].join('\n');
}
