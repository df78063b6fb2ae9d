-- 050_issued_invoice_billed_party: the billed party (name and address) a kept invoice document
-- names (docs/invoices.md "Issued documents, made once"). An issued invoice does not change: the
-- first document made of an invoice fixes whom it is addressed to, and every later document of the
-- same invoice (another language, the XRechnung, a new renderer version, a corrected record) names
-- the same party, even after the partner moved. Rows made before this column have none; their
-- invoice is fixed by its next document.
alter table issued_invoice_documents add column billed_to jsonb;
