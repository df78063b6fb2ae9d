-- 053_contact_email: portal-core.md §3 Business partner, "The contact e-mail is the explicit
-- address, else the default communication entry of type WW". One function for every query that
-- takes a partner's address on record (the sign-in links, the partial logins, the contact form's
-- link, linking a subscription, the licence managers), so a subscriber the order system sent with
-- an address only among the ways to reach them is found by it, and an index for the look-up by
-- address. A WW value that is not one address (a list, a name beside it: the explicit address's
-- schema refuses those) is none: no mail could go to it.
create function contact_email(p_email text, p_details jsonb) returns text
language sql immutable parallel safe as $$
  select coalesce(
    nullif(btrim(p_email), ''),
    (select btrim(c->>'communicationValue')
       from jsonb_array_elements(case when jsonb_typeof(p_details->'listOfCommunication') = 'array'
                                      then p_details->'listOfCommunication' else '[]'::jsonb end) c
      where c->>'communicationType' = 'WW' and c->>'communicationDefault' = 'true'
        and btrim(c->>'communicationValue') ~ '^[^@[:space:],;<>()\[\]"\\:]+@[^@[:space:],;<>()\[\]"\\:]+\.[^@[:space:],;<>()\[\]"\\:]+$'
      limit 1))
$$;

create index business_partners_tenant_contact_email
  on business_partners (tenant_id, lower(contact_email(email_address, details)));
drop index business_partners_tenant_email;
