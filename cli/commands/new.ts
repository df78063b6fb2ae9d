import type { Command } from 'commander';

/** `portal new <id>`: writes a valid tenant file to start from. */
export function registerNew(program: Command): void {
  program
    .command('new')
    .description('create tenants/<id>.json, a valid tenant file to start from')
    .argument('<id>', 'tenant id, kebab-case (e.g. "city-herald")')
    .option('-f, --force', 'overwrite an existing file', false)
    .option('-d, --dir <folder>', 'folder to write to (default: tenants/)')
    .action(async (id: string, options: { force: boolean; dir?: string }) => {
      const { existsSync } = await import('node:fs');
      const { mkdir, writeFile } = await import('node:fs/promises');
      const path = await import('node:path');
      const { TENANTS_DIR } = await import('../paths');
      const { displayPath } = await import('../../tenant/sources');
      const { portalCommand } = await import('../../server/runtime/portalCommand');
      const { newTenantTemplate } = await import('../../tenant');
      if (!/^[a-z][a-z0-9-]{1,40}$/.test(id))
        throw new Error(
          `"${id}" is not a valid tenant id. Use lower-case letters, digits and hyphens, for example "city-herald".`,
        );
      const folder = path.resolve(options.dir ?? TENANTS_DIR);
      const file = path.join(folder, `${id}.json`);
      if (existsSync(file) && !options.force)
        throw new Error(`${displayPath(file)} exists already. Use --force to overwrite it.`);
      await mkdir(folder, { recursive: true });
      await writeFile(file, newTenantTemplate(id, folder));
      // The other commands find a tenant by its id in TENANTS_DIR: a file elsewhere needs the
      // variable that moves it, or the next command says the file is not found.
      const env = folder === TENANTS_DIR ? '' : `PORTAL_TENANTS_DIR=${folder} `;
      console.log(
        `created ${displayPath(file)}. Next: ${env}${portalCommand()} validate ${id} && ${env}${portalCommand()} dev ${id}`,
      );
    });
}
