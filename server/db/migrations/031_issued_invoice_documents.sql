-- 031_issued_invoice_documents: the invoice documents the portal has made, kept so that each is
-- made once rather than on every download (docs/invoices.md "Issued documents, made once"): the
-- hybrid ZUGFeRD / Factur-X PDF and the XRechnung of a payment-history entry, per language, with a
-- fingerprint (SHA-256) of everything that went into it (the payment record and its lines, the
-- billed party's address as used, the seller's data from the tenant file, the renderer's version).
-- The same fingerprint serves the kept bytes; a changed input makes and keeps a new document
-- beside the old one, which the housekeeping removes once it has been superseded for a while.
--
-- The documents name the buyer (name, postal address, e-mail in the e-invoice): personal data,
-- declared in server/documents/personalData.ts (exported as the ZIP's invoices/, deleted with the
-- account, expired by server/store/housekeepingStore.ts). A payment the order system deletes takes
-- its documents with it.
create table issued_invoice_documents (
  tenant_id       text        not null,
  subscription_id text        not null,
  payment_id      text        not null,
  format          text        not null check (format in ('pdf', 'xrechnung')),
  locale          text        not null,
  fingerprint     text        not null,
  document        bytea       not null,
  made_at         timestamptz not null default now(),
  -- The last time a download or an export served it (touched at most once a day).
  served_at       timestamptz not null default now(),
  primary key (tenant_id, subscription_id, payment_id, format, locale, fingerprint),
  foreign key (tenant_id, subscription_id, payment_id)
    references payment_history (tenant_id, subscription_id, id) on delete cascade
);
-- The housekeeping's superseded documents, across tenants.
create index issued_invoice_documents_served on issued_invoice_documents (served_at);
