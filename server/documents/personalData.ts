/**
 * Personal data of the kept invoice documents (server/privacy/personalDataTypes.ts; migration 031,
 * docs/invoices.md "Issued documents, made once"): each PDF and XRechnung names the buyer — name,
 * postal address, in the e-invoice the e-mail address.
 */
import { deleteExpiredRows } from '../store/housekeepingStore';
import type { PersonalDataManifest } from '../privacy/personalDataTypes';

export const documentsPersonalData: PersonalDataManifest = {
  slice: 'documents',
  tables: [
    {
      table: 'issued_invoice_documents',
      // The document, and the billed party (name and address) it names, kept to name it again.
      columns: ['document', 'billed_to'],
      // The invoices of subscriptions an own partner pays for (AG or RE), as the export and the
      // download reach them (server/store/dataExportStore.ts exportPaymentHistory).
      subject: `exists (select 1 from subscription_roles r
        join user_business_partners ubp on ubp.tenant_id = r.tenant_id and ubp.bp_number = r.bp_number
        where r.tenant_id = t.tenant_id and r.subscription_id = t.subscription_id and r.role in ('AG', 'RE') and ubp.user_id = u.id)`,
      // The export's invoices/ folder holds these very bytes (server/data-export/dataExportService.ts).
      export: { file: 'invoices/' },
      erase: { action: 'delete' },
      expire: {
        by: deleteExpiredRows,
        rule: 'a version superseded by a newer one and not served for 30 days, and any no account may download any more',
      },
    },
  ],
  notPersonal: [
    {
      table: 'subscription_names_before',
      reason:
        "a product's names before an upgrade renamed it, for the invoices issued under them; nobody's data",
    },
  ],
};
