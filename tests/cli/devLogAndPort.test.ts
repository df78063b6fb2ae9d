import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { choosePort, isPortFree } from '../../cli/commands/freePort';
import { devLogger, isDevAssetPath, jsonLogger } from '../../server/http/requestLog';

/** `portal dev` logs one readable line a request and takes a free port when its own is taken. */
describe('the log of portal dev', () => {
  const linesOf = (color: boolean, ...entries: Array<Record<string, unknown>>) => {
    const lines: string[] = [];
    const log = devLogger({ write: (line) => void lines.push(line), color });
    entries.forEach((entry) => log(entry));
    return lines;
  };

  it('writes one line a request: method, path, status, whole milliseconds', () => {
    expect(
      linesOf(false, {
        msg: 'request',
        method: 'GET',
        path: '/t/technikwelt/api/subscriptions',
        status: 200,
        ms: 12.345,
        tenant: 'technikwelt',
      }),
    ).toEqual(['GET /t/technikwelt/api/subscriptions 200 12 ms']);
  });

  it('says when the client went away before the answer', () => {
    expect(
      linesOf(false, {
        msg: 'request',
        method: 'POST',
        path: '/api/x',
        status: 499,
        aborted: true,
        ms: 30001,
      }),
    ).toEqual(['POST /api/x 499 30001 ms (client went away)']);
  });

  it('colours the status only on a terminal', () => {
    const [line] = linesOf(true, { msg: 'request', method: 'GET', path: '/api/faq', status: 404, ms: 3 });
    expect(line).toBe('GET /api/faq \u001b[33m404\u001b[0m \u001b[2m3 ms\u001b[0m');
  });

  it('leaves out modules and assets Vite serves, but not their failures', () => {
    const lines = linesOf(
      false,
      { msg: 'request', method: 'GET', path: '/@vite/client', status: 200, ms: 1 },
      { msg: 'request', method: 'GET', path: '/core/Shell.tsx', status: 200, ms: 1 },
      { msg: 'request', method: 'GET', path: '/node_modules/.vite/deps/react.js', status: 304, ms: 1 },
      { msg: 'request', method: 'GET', path: '/core/Missing.tsx', status: 404, ms: 1 },
      { msg: 'request', method: 'GET', path: '/orders', status: 200, ms: 1 },
    );
    expect(lines).toEqual(['GET /core/Missing.tsx 404 1 ms', 'GET /orders 200 1 ms']);
  });

  it('writes other entries as the message and its fields, warnings marked', () => {
    expect(
      linesOf(
        false,
        { msg: 'migrations applied', migrations: ['001.sql'] },
        { level: 'warn', msg: 'e-card failed', eCardId: 7, error: 'boom' },
      ),
    ).toEqual(['migrations applied migrations=["001.sql"]', 'warning: e-card failed eCardId=7 error=boom']);
  });

  it("indents a value's further lines and escapes control characters, so no value reads as an entry of its own", () => {
    const [line] = linesOf(false, {
      level: 'warn',
      msg: 'client error',
      message: 'boom\nGET /api/logout 200 1 ms\r\n\u001b[31mred',
    });
    expect(line).toBe('warning: client error message=boom\n    GET /api/logout 200 1 ms\n    \\u001b[31mred');
    expect(
      line
        .split('\n')
        .slice(1)
        .every((continued) => continued.startsWith('    ')),
    ).toBe(true);
  });

  it('escapes the bidirectional format characters, in the readable log and in the JSON lines', () => {
    const entry = { msg: 'client error', name: '\u202e\u200fabc', path: '/x\u2066y' };
    expect(linesOf(false, entry)).toEqual(['client error name=\\u202e\\u200fabc path=/x\\u2066y']);
    const json: string[] = [];
    jsonLogger((line) => void json.push(line))(entry);
    expect(json[0]).not.toMatch(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(json[0]).toContain('"name":"\\u202e\\u200fabc"');
    // The same characters to a reader of the JSON.
    expect(JSON.parse(json[0])).toMatchObject(entry);
  });

  it('tells the module paths of the dev server from pages and API calls', () => {
    expect(isDevAssetPath('/@react-refresh')).toBe(true);
    expect(isDevAssetPath('/features/orders/OrdersScreen.tsx')).toBe(true);
    expect(isDevAssetPath('/api/subscriptions')).toBe(false);
    expect(isDevAssetPath('/subscriptions/123')).toBe(false);
  });
});

describe('choosing a free port', () => {
  it('keeps the port asked for when it is free, without a notice', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    expect(await choosePort(port)).toEqual({ port });
  });

  it('takes the next free port when the one asked for is taken, and says so', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as net.AddressInfo;
    try {
      expect(await isPortFree(port, '127.0.0.1')).toBe(false);
      const chosen = await choosePort(port);
      expect(chosen.port).toBeGreaterThan(port);
      expect(chosen.notice).toBe(`port ${port} is taken, using ${chosen.port}`);
    } finally {
      server.close();
    }
  });
});
