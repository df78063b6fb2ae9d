/**
 * What the PDFs read from the tenant (a ServerTenant satisfies it): its name, languages, brand
 * colour, logo, contact, and the invoice section of the tenant file (tenant.schema.json "invoice").
 */
import type { InvoiceConfig, Locale } from '../../schemas/generated/tenant';

export interface DocumentTenant {
  name: string;
  defaultLocale: Locale;
  logoUrl?: string;
  themeTokens?: { colors?: { primary?: string; onPrimary?: string } };
  contact?: { email?: string; phone?: string; fallbackEmail?: string; fallbackPhone?: string };
  invoice?: InvoiceConfig;
}
