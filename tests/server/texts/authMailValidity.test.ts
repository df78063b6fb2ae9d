/** How long a mailed link is valid, in the sign-in mails (server/mail/authMails.ts). */
import { describe, expect, it } from 'vitest';
import { authMail } from '../../../server/mail/authMails';
import { MAGIC_LINK_MINUTES, REGISTRATION_MINUTES } from '../../../server/auth/signInMailJobs';

const values = (minutes: number) => ({ tenant: 'Acme', link: 'https://portal.example/x', minutes });

describe('the validity a sign-in mail names', () => {
  it('is a day in hours for the registration link, in both languages', () => {
    expect(authMail('confirmRegistration', 'de-DE', values(REGISTRATION_MINUTES)).text).toContain(
      'Der Link ist 24 Stunden gültig.',
    );
    expect(authMail('confirmRegistration', 'en-GB', values(REGISTRATION_MINUTES)).text).toContain(
      'The link is valid for 24 hours.',
    );
  });

  it('is minutes for a sign-in link', () => {
    expect(authMail('magicLink', 'en-GB', values(MAGIC_LINK_MINUTES)).text).toContain(
      `${MAGIC_LINK_MINUTES} minutes`,
    );
  });
});
