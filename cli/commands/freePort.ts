import net from 'node:net';

/** Whether nothing listens on `port` at `host` (tried by listening briefly). */
export function isPortFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/**
 * The wanted port when it is free, else the next free one above it: `portal dev` picks a
 * free port when the default is taken, and says so. Port 0 (any port) is passed through.
 */
export async function choosePort(
  wanted: number,
  host = '127.0.0.1',
  attempts = 50,
): Promise<{ port: number; notice?: string }> {
  if (wanted === 0) return { port: 0 };
  for (let port = wanted; port < wanted + attempts && port <= 65535; port++) {
    if (await isPortFree(port, host))
      return port === wanted ? { port } : { port, notice: `port ${wanted} is taken, using ${port}` };
  }
  throw new Error(`ports ${wanted} to ${wanted + attempts - 1} are all taken; choose another with --port`);
}
