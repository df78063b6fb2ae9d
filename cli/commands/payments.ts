import type { Command } from 'commander';

/**
 * `portal payments check <tenant>` (docs/architecture.md "Payments", Going live step 6): asks the tenant's
 * payment provider one harmless question with its credentials, and says where its webhook goes.
 */
export function registerPayments(program: Command): void {
  const payments = program
    .command('payments')
    .description("payments: check a tenant's provider before going live");
  payments
    .command('check')
    .description(
      "verify the tenant's payment provider credentials with a harmless read (Stripe: the balance; Mollie: the payment methods) and print the webhook URL to enter",
    )
    .argument('<tenant>', 'tenant id or tenant file')
    .action(async (name: string) => {
      const { loadValidTenants } = await import('./loadValidTenants');
      const { checkPaymentProvider } = await import('../../server/payments/providerCheck');
      const [tenant] = await loadValidTenants([name]);
      const result = await checkPaymentProvider(tenant);
      for (const line of result.lines) (result.ok ? console.log : console.error)(line);
      if (!result.ok) process.exitCode = 1;
    });
}
