-- A holiday service the order system rejected (the change feed, server/store/changeRejectionStore.ts):
-- marked, so a later rejection of its cancellation never plans it again. Without the mark, a service
-- the subscriber had cancelled before the order system refused it came back as planned once the
-- cancellation was refused too, and blocked every new booking.
alter table holiday_services add column rejected_at timestamptz;
