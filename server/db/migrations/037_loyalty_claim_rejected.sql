-- A reward's claim the order system rejected (the change feed, server/store/changeRejectionStore.ts):
-- kept, so the reward stays used (a reward is claimed once; claiming again would hand out another
-- code of the pool for the same refusal), but off the member's history, its code and shop link not
-- shown any more.
alter table loyalty_claims add column rejected_at timestamptz;
