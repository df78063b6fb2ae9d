import { jobDuration, jobLastSuccess, jobRuns } from '../metrics/registry';

/** What a job's last rounds were, for readiness (server/metrics/readiness.ts). */
export interface JobState {
  intervalMs: number;
  startedAt: number;
  lastSuccessAt?: number;
  lastFailureAt?: number;
  lastError?: string;
  running: boolean;
}

const jobs = new Map<string, JobState>();

/** The jobs this process runs, by name: their interval and last outcome. */
export function jobStates(): ReadonlyMap<string, Readonly<JobState>> {
  return jobs;
}

/**
 * What /readyz may say of a failed round: the error's kind and code (`Error (ECONNREFUSED)`), never
 * its message. /readyz shows it to whoever runs the machine, and a message can carry what the round
 * was handling (an SMTP server's refusal names its recipient); the message goes to the log.
 */
export function errorKind(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  const shown = typeof code === 'string' || typeof code === 'number' ? String(code).slice(0, 40) : '';
  return `${error.name.slice(0, 60)}${shown ? ` (${shown})` : ''}`;
}

/** A job name as a metric label: `mail sender` → `mail_sender`. */
function jobLabel(name: string): string {
  return name.replace(/[^a-z0-9]+/gi, '_').toLowerCase();
}

/**
 * A background job of a server instance (the mail sender, the webhook deliverer): one round at once,
 * then one every `intervalMs`; a failed round is logged and the next one tries again. The job's rows
 * live in the database and are claimed there, so the same job runs in every instance without doing
 * anything twice (docs/architecture.md "Running more than one instance"). Returns a stop function that waits
 * for the round under way. Each round is counted and timed (portal_job_*, docs/going-live.md "Operations"),
 * and its outcome kept for readiness: a job whose rounds stopped succeeding is what an operator asks
 * /readyz about.
 */
export function startPeriodicJob(
  name: string,
  round: (isStopping: () => boolean) => Promise<unknown>,
  options: {
    intervalMs: number;
    log?: (entry: Record<string, unknown>) => void;
    /**
     * Hands the job a `wake` that starts a round now instead of at the next interval (a round under
     * way is followed by one more); returns what stops the waking.
     */
    wakeOn?: (wake: () => void) => () => Promise<void>;
  },
): () => Promise<void> {
  let running: Promise<void> | undefined;
  let stopped = false;
  let again = false;
  const task = jobLabel(name);
  const state: JobState = { intervalMs: options.intervalMs, startedAt: Date.now(), running: true };
  jobs.set(name, state);
  const run = () => {
    if (running || stopped) return;
    running = (async () => {
      const end = jobDuration.startTimer({ task });
      try {
        await round(() => stopped);
        state.lastSuccessAt = Date.now();
        jobRuns.inc({ task, outcome: 'ok' });
        jobLastSuccess.set({ task }, state.lastSuccessAt / 1000);
      } catch (error) {
        state.lastFailureAt = Date.now();
        state.lastError = errorKind(error);
        jobRuns.inc({ task, outcome: 'error' });
        options.log?.({ level: 'warn', msg: `${name} round failed`, error: String(error) });
      } finally {
        end();
        running = undefined;
      }
      if (again) {
        again = false;
        run();
      }
    })();
  };
  const wake = () => {
    if (running) again = true;
    else run();
  };
  run();
  const timer = setInterval(run, options.intervalMs);
  timer.unref();
  const stopWaking = options.wakeOn?.(wake);
  return async () => {
    stopped = true;
    state.running = false;
    clearInterval(timer);
    await stopWaking?.();
    await running;
    if (jobs.get(name) === state) jobs.delete(name);
  };
}
