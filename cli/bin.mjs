#!/usr/bin/env node
// The `portal` command. The CLI is TypeScript; tsx compiles it on the fly so no build step is needed.
import { register } from 'tsx/esm/api';

register();
// The settings file before anything else: the commands' modules take their folders (tenants, dist)
// and their defaults (PORT, HOST) from the environment as they load.
const { loadEnvironmentFile } = await import('./environmentFile.ts');
let settings = null;
try {
  settings = loadEnvironmentFile();
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const { runCli } = await import('./program.ts');
await runCli(process.argv, settings);
