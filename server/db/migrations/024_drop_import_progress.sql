-- `portal import` loads a set of files in one transaction (docs/going-live.md "Going live with your order
-- system", 3. Import): all of it is written or nothing, so there is no part-way point to resume
-- from. An interrupted import is simply run again, and an identical import changes nothing. The
-- table that recorded how far a file got goes: a row left by an import of the old kind would
-- otherwise only mislead.
drop table if exists import_progress;
