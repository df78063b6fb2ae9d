/**
 * A background job of a server instance (the mail sender, the webhook deliverer): one round at once,
 * then one every `intervalMs`; a failed round is logged and the next one tries again. The job's rows
 * live in the database and are claimed there, so the same job runs in every instance without doing
 * anything twice (README "Running more than one instance"). Returns a stop function that waits for
 * the round under way.
 */
export function startPeriodicJob(
  name: string,
  round: (isStopping: () => boolean) => Promise<unknown>,
  options: { intervalMs: number; log?: (entry: Record<string, unknown>) => void },
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = (async () => {
      try {
        await round(() => stopped);
      } catch (error) {
        options.log?.({ level: 'warn', msg: `${name} round failed`, error: String(error) });
      } finally {
        running = undefined;
      }
    })();
  };
  run();
  const timer = setInterval(run, options.intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
