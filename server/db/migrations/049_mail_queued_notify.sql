-- A queued mail wakes the mail sender when its transaction commits (server/mail/mailSender.ts
-- startMailSender listens on `mail_queued`), instead of waiting for the sender's next round: a sign-in
-- link is what a person waits for at the screen. NOTIFY is delivered on commit only, and several in
-- one transaction arrive as one; a statement that queues many mails notifies once.
create or replace function notify_mail_queued() returns trigger
language plpgsql as $$
begin
  perform pg_notify('mail_queued', '');
  return null;
end;
$$;

create trigger mail_queued_notify
  after insert on mail_queue
  for each statement
  execute function notify_mail_queued();
