/**
 * What the PDFs read from the tenant (a ServerTenant satisfies it): its name, languages, brand
 * colour, logo, contact, and the invoice section of the tenant file (tenant.schema.json "invoice").
 */
import type { InvoiceConfig, Locale } from '../../schemas/generated/tenant';
import { wordsIn } from '../../engine/domain/language';

export interface DocumentTenant {
  name: string;
  defaultLocale: Locale;
  logoUrl?: string;
  themeTokens?: { colors?: { primary?: string; onPrimary?: string } };
  contact?: { email?: string; phone?: string; fallbackEmail?: string; fallbackPhone?: string };
  invoice?: InvoiceConfig;
}

/** The publisher's register entry in the document's language (one text, or one per locale). */
export function registrationIn(config: InvoiceConfig | undefined, locale: Locale): string | undefined {
  const registration = config?.publisher?.registration;
  return typeof registration === 'string' ? registration : wordsIn(registration, locale);
}
