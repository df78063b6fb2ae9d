#!/usr/bin/env node
// The `portal` command. The CLI is TypeScript; tsx compiles it on the fly so no build step is needed.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('./program.ts');
await runCli(process.argv);
