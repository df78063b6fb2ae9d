-- A subscription's accepted offers, read with the subscription (its lifecycle, and whether a
-- renewal runs for each card of the orders list): by subscription, not by a scan of the tenant's.
create index offer_acceptances_by_subscription on offer_acceptances (tenant_id, subscription_id);
