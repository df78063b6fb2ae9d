-- Order-system prose in more than one language, so every screen shows it in its own: beside the
-- plain text columns of pending orders, issues and delivered issues, per locale the same fields in
-- that language, e.g. {"en-GB": {"title": "Technikwelt Magazin – 4-week trial"}}. The stores answer
-- in the request's language and keep the stored words for a field without a translation
-- (server/store/localizedDetails.ts; details.translations holds the same for subscriptions and
-- purchase orders).
alter table pending_orders add column translations jsonb;
alter table issues add column translations jsonb;
alter table delivered_issues add column translations jsonb;
