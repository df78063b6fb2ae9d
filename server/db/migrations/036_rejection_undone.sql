-- Whether a rejection took anything back (server/operator/changes/changeFeed.ts): the order
-- system's record (an overlay reverted) or what the feature keeps in its own tables. A change that
-- left nothing to take back (a message sent, a password changed, or one whose record the order
-- system has since sent anew) is still rejected and its subscriber told, but not that the account
-- "shows the previous details again". Null for the rejections before this column: they said so.
alter table change_acknowledgements add column undone boolean;
