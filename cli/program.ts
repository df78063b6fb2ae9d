import { Command } from 'commander';
import path from 'node:path';
import { registerValidate } from './commands/validate';
import { registerBuild } from './commands/build';
import { registerServe } from './commands/serve';
import { registerDev } from './commands/dev';
import { registerNew } from './commands/new';
import { registerPreview } from './commands/preview';
import { registerStart } from './commands/start';
import { registerDb } from './commands/db';
import { registerEvents } from './commands/events';
import { registerInsights } from './commands/insights';
import { registerKeys } from './commands/keys';
import { registerImport } from './commands/import';
import { registerStudio } from './commands/studio';
import { registerWebhooks } from './commands/webhooks';
import { registerPayments } from './commands/payments';

/**
 * The `portal` program as a factory (CONVENTIONS.md, Docusaurus): tests build it and drive it
 * without spawning a process. Each command lives in its own module and imports its heavy
 * dependencies inside its action so `--help` stays instant (Vite's CLI).
 */
export function createProgram(): Command {
  const program = new Command('portal')
    .description('Validate, build, serve and preview white-label subscriber portals from tenant files.')
    .showHelpAfterError()
    .exitOverride();
  registerValidate(program);
  registerBuild(program);
  registerServe(program);
  registerDev(program);
  registerNew(program);
  registerPreview(program);
  registerStart(program);
  registerDb(program);
  registerEvents(program);
  registerInsights(program);
  registerKeys(program);
  registerImport(program);
  registerStudio(program);
  registerWebhooks(program);
  registerPayments(program);
  return program;
}

/**
 * Runs the program. `settings` is the settings file cli/bin.mjs read before it loaded this module
 * (cli/environmentFile.ts), named on stderr so the operator sees which one applied.
 */
export async function runCli(argv: string[], settings: string | null): Promise<void> {
  const program = createProgram();
  try {
    if (settings) console.error(`settings: ${path.relative(process.cwd(), settings) || settings}`);
    await program.parseAsync(argv);
  } catch (error) {
    const code = (error as { code?: string; exitCode?: number }).code;
    if (code?.startsWith('commander.')) {
      process.exitCode = (error as { exitCode?: number }).exitCode ?? 1;
      return;
    }
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
