/**
 * No serving command can let requests reach private addresses (docs/going-live.md "Account events and
 * webhooks", "Outbound requests"): the variable that once did, PORTAL_WEBHOOK_ALLOW_PRIVATE, makes
 * `portal serve` refuse to start, with what to do instead, before it opens a database.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgram } from '../../cli/program';
import { retiredPrivateAddressSwitch } from '../../server/http/publicRequest';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('private addresses under portal serve', () => {
  it('refuses to start while PORTAL_WEBHOOK_ALLOW_PRIVATE is set, whatever its value', async () => {
    vi.stubEnv('PORTAL_WEBHOOK_ALLOW_PRIVATE', 'true');
    // A database that would fail loudly if it were opened: the refusal comes first.
    vi.stubEnv('DATABASE_URL', 'postgres://nobody@127.0.0.1:1/none');
    await expect(createProgram().parseAsync(['node', 'portal', 'serve', '--port', '0'])).rejects.toThrow(
      'PORTAL_WEBHOOK_ALLOW_PRIVATE is set, but the server sends webhooks (and every other request to a URL a tenant file or an operator names) to public addresses only, and no setting switches that off: remove PORTAL_WEBHOOK_ALLOW_PRIVATE, and give the receiver a public https address (docs/going-live.md "Account events and webhooks", "Outbound requests")',
    );
    expect(retiredPrivateAddressSwitch({ PORTAL_WEBHOOK_ALLOW_PRIVATE: '1' })).toMatch(
      /^PORTAL_WEBHOOK_ALLOW_PRIVATE is set/,
    );
    // `serve` loads the whole server's modules before it refuses: about 4 s alone, more beside
    // other test files on two cores.
  }, 30_000);

  it('starts without it (an empty value counts as unset)', () => {
    expect(retiredPrivateAddressSwitch({})).toBeUndefined();
    expect(retiredPrivateAddressSwitch({ PORTAL_WEBHOOK_ALLOW_PRIVATE: '' })).toBeUndefined();
  });
});
