import { isFeatureOn } from '../../engine/domain/tenantFeatures';
import type { ServerTenant } from '../tenancy/tenantContext';
import { startDemoOidcProvider, type RunningOidcProvider } from './demoOidcProvider';

/**
 * For the demo (`npm start`, `portal dev`): one demo OpenID provider per loopback issuer named by
 * an OAuth tenant, with the portal's login URLs (prefix and tenant hosts) as redirect URIs.
 * Issuers on real hosts are left alone. A port already in use is reported, not fatal.
 */
export async function startDemoProviders(
  tenants: readonly ServerTenant[],
  serverUrl: string,
  warn: (message: string) => void,
): Promise<RunningOidcProvider[]> {
  const byIssuer = new Map<string, ServerTenant[]>();
  for (const tenant of tenants) {
    const issuer = tenant.login.oauth?.issuer;
    if (!issuer || !isFeatureOn(tenant, 'oauth')) continue;
    const url = new URL(issuer);
    if (url.hostname !== '127.0.0.1' && url.hostname !== 'localhost') continue;
    byIssuer.set(issuer, [...(byIssuer.get(issuer) ?? []), tenant]);
  }
  const port = new URL(serverUrl).port;
  const running: RunningOidcProvider[] = [];
  for (const [issuer, issuerTenants] of byIssuer) {
    const url = new URL(issuer);
    try {
      running.push(
        await startDemoOidcProvider({
          port: Number(url.port),
          host: url.hostname,
          clients: issuerTenants.map((tenant) => ({
            clientId: tenant.login.oauth!.clientId,
            redirectUris: [
              `${serverUrl}/t/${tenant.id}/login`,
              ...tenant.hosts.map((host) => `http://${host}:${port}/login`),
            ],
          })),
        }),
      );
    } catch (error) {
      warn(`demo sign-on provider for ${issuer} not started: ${(error as Error).message}`);
    }
  }
  return running;
}
