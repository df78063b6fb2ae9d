-- The mailbox an opt-in widget sign-up's address delivers to (engine/domain/fieldRules.ts
-- mailboxOf), kept beside the address, so "one voucher per mailbox" (account-flows.md §2 "Opt-in
-- widget") asks one column the server computed, rather than restating the rule in SQL: Gmail
-- delivers `v.oucher.farm@googlemail.com` and `voucherfarm+x@gmail.com` to one inbox. Rows made
-- before: the same rule, once, here.
alter table opt_in_widget_signups add column mailbox text;
update opt_in_widget_signups
   set mailbox = case
     when split_part(email, '@', 2) in ('gmail.com', 'googlemail.com')
       then replace(split_part(regexp_replace(email, '\+[^@]*@', '@'), '@', 1), '.', '') || '@gmail.com'
     else regexp_replace(email, '\+[^@]*@', '@')
   end;
alter table opt_in_widget_signups alter column mailbox set not null;
create index opt_in_widget_signups_mailbox on opt_in_widget_signups (tenant_id, provider, mailbox)
  where voucher_code is not null;
