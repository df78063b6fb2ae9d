/**
 * The outbound guard's last check (docs/going-live.md "Account events and webhooks", "Outbound requests"):
 * the address the socket is actually connected to. Resolving and connecting to the checked address
 * leaves nothing for a re-pointed name to change, so a network has to misroute the connection to
 * get past the first two checks; node:net's connect is replaced here by one that does, sending a
 * connection for a public address to a receiver on 127.0.0.1. It is destroyed before a byte of the
 * request is written.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';

/** What the guard asked node:net to connect to: the host and, for a name, its lookup's answer. */
const asked: Array<{ host: string; addresses?: unknown }> = [];

vi.mock('node:net', async (importOriginal) => {
  const net = await importOriginal<typeof import('node:net')>();
  return {
    ...net,
    connect: (options: { host: string; port: number; lookup?: import('node:net').LookupFunction }) => {
      const entry: { host: string; addresses?: unknown } = { host: options.host };
      options.lookup?.(options.host, { all: true }, (_error, addresses) => (entry.addresses = addresses));
      asked.push(entry);
      return net.connect({ port: options.port, host: '127.0.0.1' });
    },
  };
});

const { publicRequest } = await import('../../../server/http/publicRequest');

let server: Server;
let port: number;
const received: Buffer[] = [];
let connections = 0;

beforeAll(async () => {
  server = createServer(() => {
    throw new Error('no request may arrive');
  });
  server.on('connection', (socket) => {
    connections++;
    socket.on('data', (chunk: Buffer) => received.push(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

it('destroys a connection that ends up at a non-public address before anything is written', async () => {
  const outcome = await new Promise<{ code?: string; message: string }>((resolve) => {
    const request = publicRequest(
      new URL(`https://crm.public.example:${port}/hook`),
      {
        method: 'POST',
        timeoutMs: 2_000,
        resolve: async () => [
          { address: '10.0.0.1', family: 4 },
          { address: '93.184.216.34', family: 4 },
          { address: 'fd00::1', family: 6 },
        ],
      },
      () => resolve({ message: 'answered' }),
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ code: error.code, message: error.message }),
    );
    request.end('{"id":"evt"}');
  });
  expect(outcome).toEqual({
    code: 'ENONPUBLICADDRESS',
    message:
      'the connection to crm.public.example reached 127.0.0.1, which is a loopback address (127.0.0.0/8): requests go to public addresses only',
  });
  // Only the public address of the three was handed to the connection, by a lookup that resolves nothing.
  expect(asked).toEqual([
    { host: 'crm.public.example', addresses: [{ address: '93.184.216.34', family: 4 }] },
  ]);
  // The misrouted connection was made, and closed without a byte: not even a TLS hello.
  await vi.waitFor(() => expect(connections).toBe(1));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(Buffer.concat(received).length).toBe(0);
});
