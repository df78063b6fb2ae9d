-- 027_invoice_lines_and_paid_amount: an invoice of the payment history as the order system books it
-- (docs/invoices.md "Invoices and documents"): its lines (description with translations, quantity, gross unit
-- price, VAT category and rate; schemas/api/order-system-payment.schema.json) and what has been
-- paid of it (EN 16931 BT-113), so that a partly paid invoice asks for the rest only and a bundle
-- at two rates is split per rate. Both may be null: an invoice without lines is one line of the
-- whole amount, as before; without a paid amount, status A means paid in full.
alter table payment_history add column paid_amount numeric(12,2);
alter table payment_history add column lines jsonb;

-- The trigger of migration 023 names the record's columns; the payments' record has two more.
drop trigger payment_history_portal_change on payment_history;
do $$
declare
  t record;
begin
  for t in select * from (values
    ('payments', 'payment_history', 'subscription_id,id', 'subscription_id,id,date,amount,currency,invoice_status_code,invoice_number,external_document_number,document_id,paid_amount,lines', '')
  ) as v(entity, tbl, key_columns, tracked, by_key) loop
    execute format(
      'create trigger %I after insert or update or delete on %I for each row
         when (current_setting(''portal.order_system_write'', true) is distinct from ''on'')
         execute function capture_portal_change(%L, %L, %L, %L)',
      t.tbl || '_portal_change', t.tbl, t.entity, t.key_columns, t.tracked, t.by_key);
  end loop;
end;
$$;
