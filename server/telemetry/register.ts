/**
 * `node --import tsx --import ./server/telemetry/register.ts <entry>`: tracing from the OTEL_*
 * variables before the entry imports anything (docs/going-live.md "Operations"); a no-op without them.
 * `portal serve` and `portal start` need no flag: they start it themselves before the server loads.
 */
import { startTracingFromEnv } from './tracing';

await startTracingFromEnv();
