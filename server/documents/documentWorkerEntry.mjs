// The document worker's entry (documentWorker.ts). A worker thread does not inherit the loader the
// server's process registered, so it registers tsx itself before loading the TypeScript side.
import { register } from 'tsx/esm/api';

register();
await import('./documentWorkerThread.ts');
