import type { Command } from 'commander';

/**
 * `portal validate [files...]`: every error of every tenant file at once; exit 1 on any. Warnings
 * (a text missing in an offered locale) are printed too but do not fail the command.
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check tenant files against schemas/tenant.schema.json and the cross-field rules')
    .argument(
      '[tenants...]',
      'tenant ids, files or folders (default: every tenants/*.json, or every file of PORTAL_TENANTS_DIR)',
    )
    .option('--json', 'print the issues as JSON for tools', false)
    .action(async (names: string[], options: { json: boolean }) => {
      const { loadTenantFiles, formatIssueWithHint } = await import('../../tenant');
      const { tenantFiles } = await import('./loadValidTenants');
      const { tenants, issues, warnings } = await loadTenantFiles(tenantFiles(names));
      if (options.json) {
        console.log(
          JSON.stringify(
            { valid: issues.length === 0, tenants: tenants.map((t) => t.id), issues, warnings },
            null,
            2,
          ),
        );
      } else {
        for (const issue of issues) console.error(formatIssueWithHint(issue));
        for (const warning of warnings) console.error(formatIssueWithHint(warning));
        const warned = warnings.length ? ` ${warnings.length} warning(s).` : '';
        console.error(
          issues.length
            ? `\n${issues.length} problem(s) found.${warned}`
            : `✓ ${tenants.length} tenant file(s) valid.${warned}`,
        );
      }
      if (issues.length) process.exitCode = 1;
    });
}
