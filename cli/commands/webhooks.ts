import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { unknownTenant } from '../paths';
import {
  WEBHOOK_SECRET_DEFAULT_BYTES,
  WEBHOOK_SECRET_MAX_BYTES,
  WEBHOOK_SECRET_MIN_BYTES,
} from '../../tenant/webhookSecret';

function parseBytes(value: string): number {
  const bytes = Number(value);
  if (!Number.isInteger(bytes) || bytes < WEBHOOK_SECRET_MIN_BYTES || bytes > WEBHOOK_SECRET_MAX_BYTES)
    throw new InvalidArgumentError(
      `write a whole number from ${WEBHOOK_SECRET_MIN_BYTES} to ${WEBHOOK_SECRET_MAX_BYTES}`,
    );
  return bytes;
}

/**
 * `portal webhooks secret|enable`: the chores of an operator's webhook endpoints that
 * the tenant file cannot do — making a Standard Webhooks secret for an endpoint's variable, and
 * turning back on an endpoint that answered 410 Gone.
 */
export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('webhook endpoints: make a signing secret, re-enable an endpoint that answered 410 Gone');
  webhooks
    .command('secret')
    .description(
      "print a new signing secret (whsec_ + base64 of random bytes) for an endpoint's secretEnv variable; give the same value to the receiver",
    )
    .option(
      '--bytes <n>',
      `random bytes (${WEBHOOK_SECRET_MIN_BYTES} to ${WEBHOOK_SECRET_MAX_BYTES}; default: ${WEBHOOK_SECRET_DEFAULT_BYTES})`,
      parseBytes,
      WEBHOOK_SECRET_DEFAULT_BYTES,
    )
    .action(async (options: { bytes: number }) => {
      const { generateWebhookSecret } = await import('../../tenant/webhookSecret');
      // Only the secret on stdout, so `export VAR=$(portal webhooks secret)` works.
      console.log(generateWebhookSecret(options.bytes));
    });
  webhooks
    .command('enable')
    .description(
      'deliver again to an endpoint that answered 410 Gone (DATABASE_URL, or the embedded PostgreSQL under data/); running servers notice within a second',
    )
    .argument('<tenant>', 'tenant id')
    .argument('<url>', 'the endpoint URL, as in the tenant file and `portal events`')
    .action(async (tenant: string, url: string) => {
      const { withDatabase } = await import('./db');
      const { enableEndpoint, listDisabledEndpoints } = await import('../../server/store/accountEventStore');
      const { redactedUrl } = await import('../../server/events/webhookAddress');
      await withDatabase(async (db) => {
        if (await enableEndpoint(db, tenant, url)) {
          console.log(
            `enabled ${redactedUrl(url)} of ${tenant}: events from now on are delivered to it (those failed while it was disabled are not sent again)`,
          );
          return;
        }
        const disabled = await listDisabledEndpoints(db, { tenantId: tenant });
        // A tenant whose file is gone keeps its events and endpoints: only one with neither is unknown.
        const hasEvents =
          (await db.query(`select 1 from account_events where tenant_id = $1 limit 1`, [tenant])).length > 0;
        const unknown =
          disabled.length === 0 && !hasEvents ? unknownTenant(tenant, ' and no events of it') : null;
        if (unknown) throw new Error(unknown);
        throw new Error(
          `${redactedUrl(url)} is not a disabled endpoint of ${tenant}` +
            (disabled.length
              ? ` (disabled: ${disabled.map((endpoint) => redactedUrl(endpoint.url)).join(', ')})`
              : ' (it has none)'),
        );
      });
    });
}
