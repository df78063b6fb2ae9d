import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback, for the demo of OAuth
 * tenants (`npm start`, `portal dev`) and for the tests: authorisation-code flow with PKCE, its
 * own login and consent pages (devInteractions: any e-mail signs in; the e-mail becomes the
 * subject and a verified e-mail claim). Never for production: it trusts whatever is typed.
 */
export interface DemoOidcClient {
  clientId: string;
  redirectUris: string[];
}

export interface RunningOidcProvider {
  issuer: string;
  close(): Promise<void>;
}

export async function startDemoOidcProvider(options: {
  port: number;
  host?: string;
  clients: DemoOidcClient[];
}): Promise<RunningOidcProvider> {
  const { default: Provider } = await import('oidc-provider');
  const host = options.host ?? '127.0.0.1';
  const server: Server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host}:${port}`;
  const provider = new Provider(issuer, {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      token_endpoint_auth_method: 'none',
      redirect_uris: client.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
    })),
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx: unknown, id: string) {
      const email = id.trim().toLowerCase();
      return {
        accountId: id,
        async claims() {
          return { sub: id, email, email_verified: true, name: email.split('@')[0] };
        },
      };
    },
  });
  // Plain HTTP on loopback: tell the provider not to insist on TLS for its own cookies.
  provider.proxy = false;
  server.on('request', provider.callback());
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
