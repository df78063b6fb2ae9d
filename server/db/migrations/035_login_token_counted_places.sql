-- A sign-in request counts against its client's and its address's budgets (server/auth/rateLimit.ts)
-- before anyone knows whether it will be a success; the link it mails is the success, once opened.
-- counted_in keeps the places the request took ([{bucket, windowStart}], the rate_limits rows), and
-- spending the link gives them back in the same statement (consumeLoginToken): signing in again and
-- again by link never runs into "too many attempts", while links nobody opens keep counting.
alter table login_tokens add column counted_in jsonb;
