/**
 * The one way the server makes a request to a URL that a tenant file or an operator names: webhook
 * deliveries now, any provider callback later (docs/going-live.md "Account events and webhooks", "Outbound
 * requests"). Such a request goes to a public address only, or nowhere; the rules are those of
 * tenant/publicAddress.ts, which `portal validate` applies to the file as well.
 *
 * Why not just a `lookup` hook: Node never calls it for an IP literal, so `https://127.0.0.2/`,
 * `https://0.0.0.0/` or `https://[::ffff:127.0.0.1]/` went straight through. Here the connection
 * itself is made by this module, in three checks, before a single byte (not even a TLS hello)
 * leaves:
 *  1. the URL's host: an IP literal in any notation (the URL parser has already turned 127.1,
 *     0x7f.1 or 2130706433 into 127.0.0.1, and the rules read the bytes anyway) or a localhost
 *     name is refused at once;
 *  2. a name is resolved here, every address it resolves to is judged, and the socket connects
 *     only to those that passed (its `lookup` answers them: no second resolution between the
 *     check and the connection, so a name re-pointed in between gains nothing);
 *  3. once connected, the socket's remote address is judged again, and the socket destroyed if it
 *     is not public.
 * Redirects are never followed (node:http does not): the caller treats a 3xx as a failure.
 *
 * `allowPrivate: true` switches the checks off for tests that deliver to a receiver on 127.0.0.1;
 * `allowPrivate: 'loopback'` admits this machine only (127.0.0.0/8, ::1, `localhost`), for the
 * development servers' sign-on provider (never `portal serve`). Both are options of the code, never
 * an environment variable or a setting.
 */
import { lookup as dnsLookup } from 'node:dns';
import {
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as netConnect, isIP, type LookupFunction, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { bareHost, isLoopbackAddress, nonPublicAddress, nonPublicHost } from '../../tenant/publicAddress';

/**
 * A request refused because its address is not public. `permanent` when the URL itself says so (a
 * literal address, a localhost name): asking again can never succeed. A name that resolves to a
 * private address may be re-pointed, so that refusal is not permanent.
 */
export class NonPublicAddressError extends Error {
  readonly code = 'ENONPUBLICADDRESS';
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'NonPublicAddressError';
  }
}

/** The request, connection and answer included, took longer than `timeoutMs`. */
export class OutboundTimeoutError extends Error {
  readonly code = 'EOUTBOUNDTIMEOUT';
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'OutboundTimeoutError';
  }
}

/** Every address of a host name, in the resolver's order. */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

export interface PublicRequestOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  /** For the whole request: resolving, connecting and the answer's headers. */
  timeoutMs: number;
  /**
   * `true`, tests only: any private receiver. No `portal` command passes it (see the header).
   * `'loopback'`: this machine itself (127.0.0.0/8, ::1, `localhost`) and no other private address,
   * for the development servers' sign-on provider (server/auth/oauthLogin.ts).
   */
  allowPrivate?: boolean | 'loopback';
  /** How host names are resolved (dns.lookup, every address, by default); tests hand in their own. */
  resolve?: HostResolver;
}

const ONLY_PUBLIC = 'requests go to public addresses only';

/**
 * Variables that once let requests reach private addresses (PORTAL_WEBHOOK_ALLOW_PRIVATE=true, for
 * a CRM inside the operator's network). Nothing reads them any more, and a server that quietly
 * ignored one would leave its operator waiting for deliveries that are refused: every serving
 * command (`portal serve` included) refuses to start while one is set.
 */
const RETIRED_SWITCHES = ['PORTAL_WEBHOOK_ALLOW_PRIVATE'] as const;

/** Why the server must not start with this environment, or undefined. */
export function retiredPrivateAddressSwitch(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string | undefined {
  const name = RETIRED_SWITCHES.find((candidate) => env[candidate] !== undefined && env[candidate] !== '');
  return (
    name &&
    `${name} is set, but the server sends webhooks (and every other request to a URL a tenant file or an operator names) to public addresses only, and no setting switches that off: remove ${name}, and give the receiver a public https address (docs/going-live.md "Account events and webhooks", "Outbound requests")`
  );
}

type Resolved = Awaited<ReturnType<HostResolver>>;

/** Why a request must not go to this address under the options, or undefined. */
function refusedAddress(address: string, options: PublicRequestOptions): string | undefined {
  if (options.allowPrivate === true) return undefined;
  if (options.allowPrivate === 'loopback' && isLoopbackAddress(address)) return undefined;
  return nonPublicAddress(address);
}

/** Why a URL's host must not be asked by itself under the options, or undefined. */
function refusedHost(hostname: string, options: PublicRequestOptions): string | undefined {
  if (options.allowPrivate === true) return undefined;
  const host = bareHost(hostname).toLowerCase().replace(/\.$/, '');
  if (options.allowPrivate === 'loopback' && (host === 'localhost' || isLoopbackAddress(host)))
    return undefined;
  return nonPublicHost(hostname);
}

/** The public addresses of a name, or a refusal naming what it resolved to. */
async function publicAddresses(host: string, options: PublicRequestOptions): Promise<Resolved> {
  const resolved = await (options.resolve ?? systemResolver)(host);
  const allowed = resolved.filter((entry) => refusedAddress(entry.address, options) === undefined);
  if (allowed.length === 0) {
    const refused = resolved.map((entry) => `${entry.address} is ${nonPublicAddress(entry.address)}`);
    throw new NonPublicAddressError(
      `${host} resolves to no public address (${refused.join('; ') || 'none'}): ${ONLY_PUBLIC}`,
      false,
    );
  }
  return allowed;
}

/** A `lookup` that answers the addresses already judged, and never asks the resolver again. */
function judgedLookup(addresses: Resolved): LookupFunction {
  return (_hostname, options, callback) =>
    options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family);
}

/**
 * Connects to the URL's host the guarded way (steps 1–3 of the header) and hands over the socket,
 * wrapped in TLS for https; or the reason it did not. Answers a function that abandons the attempt.
 */
function connectPublic(
  url: URL,
  options: PublicRequestOptions,
  done: (error: Error | null, socket?: Duplex) => void,
): (error: Error) => void {
  let finished = false;
  let pending: Socket | undefined;
  const finish = (error: Error | null, socket?: Duplex) => {
    if (finished) {
      socket?.destroy();
      return;
    }
    finished = true;
    done(error, socket);
  };

  void (async () => {
    const host = bareHost(url.hostname);
    const https = url.protocol === 'https:';
    const port = Number(url.port) || (https ? 443 : 80);
    const literal = refusedHost(url.hostname, options);
    if (literal) throw new NonPublicAddressError(`${literal}: ${ONLY_PUBLIC}`, true);
    const judged = isIP(host) ? undefined : await publicAddresses(host, options);
    if (finished) return;
    const socket = await new Promise<Socket>((resolve, reject) => {
      // A name connects to the addresses judged above (Node tries IPv6 and IPv4 side by side, as
      // it would its own); an IP literal is connected to as it is, Node looks nothing up for it.
      const connecting = netConnect({
        host,
        port,
        ...(judged && { lookup: judgedLookup(judged), autoSelectFamily: true }),
      });
      pending = connecting;
      connecting.once('error', reject);
      connecting.once('connect', () => {
        connecting.off('error', reject);
        resolve(connecting);
      });
    });
    const remote = socket.remoteAddress ?? '';
    const why = refusedAddress(remote, options);
    if (why) {
      socket.destroy();
      throw new NonPublicAddressError(
        `the connection to ${host} reached ${remote || 'an unknown address'}, which is ${why}: ${ONLY_PUBLIC}`,
        false,
      );
    }
    if (!https) return finish(null, socket);
    // The name for SNI and the certificate check; an IP literal is checked against the certificate's IP entries.
    finish(
      null,
      tlsConnect({ socket, host, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] }),
    );
  })().catch((error: Error) => finish(error));

  return (error) => {
    pending?.destroy();
    finish(error);
  };
}

/**
 * Like http(s).request, to a public address only: the request fails with a NonPublicAddressError
 * when it is not, with an OutboundTimeoutError after `timeoutMs`, and never follows a redirect.
 * Write the body and end it as with http.request; listen for 'error'.
 */
export function publicRequest(
  url: URL,
  options: PublicRequestOptions,
  onResponse?: (response: IncomingMessage) => void,
): ClientRequest {
  let abandon: ((error: Error) => void) | undefined;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const request = send(
    url,
    {
      method: options.method ?? 'GET',
      headers: options.headers,
      // No agent: every request connects through connectPublic, and keeps no socket for another.
      createConnection: (_args, oncreate) => {
        abandon = connectPublic(url, options, (error, socket) => {
          abandon = undefined;
          // Without a socket the request ends with this error alone (no 'close' follows). Never
          // called before connectPublic's first await, so the timer below exists by then.
          if (error) clearTimeout(timer);
          oncreate(error, socket!);
        });
        return undefined;
      },
    },
    onResponse,
  );
  const timer = setTimeout(() => {
    const timedOut = new OutboundTimeoutError(options.timeoutMs);
    // While still connecting there is no socket to destroy: the attempt ends with the error instead.
    if (abandon) abandon(timedOut);
    else request.destroy(timedOut);
  }, options.timeoutMs);
  request.once('close', () => clearTimeout(timer));
  return request;
}

/** Longest answer publicFetch reads: a provider's metadata, keys or tokens, never a download. */
const MAX_FETCH_ANSWER_BYTES = 1024 * 1024;

/**
 * A Fetch API-shaped request through the guard, for libraries that take a custom fetch (the
 * OpenID Connect client: discovery, keys, tokens and user info of a tenant's sign-on provider). A
 * redirect answers as it is (the library asks for `redirect: 'manual'`), an answer over 1 MB fails.
 */
export function publicFetch(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array | ArrayBuffer | URLSearchParams | null;
    signal?: AbortSignal;
  },
  options: Pick<PublicRequestOptions, 'timeoutMs' | 'allowPrivate' | 'resolve'>,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const body =
      init.body == null
        ? undefined
        : init.body instanceof ArrayBuffer
          ? Buffer.from(init.body)
          : typeof init.body === 'string' || init.body instanceof Uint8Array
            ? init.body
            : init.body.toString();
    const request = publicRequest(
      new URL(url),
      {
        method: init.method,
        headers: init.headers,
        timeoutMs: options.timeoutMs,
        allowPrivate: options.allowPrivate,
        resolve: options.resolve,
      },
      (answer) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_FETCH_ANSWER_BYTES)
            request.destroy(new Error(`the answer of ${url} is larger than 1 MB`));
          else chunks.push(chunk);
        });
        answer.once('error', reject);
        answer.once('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers))
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              headers.append(name, one);
          const status = answer.statusCode ?? 502;
          const empty = status === 204 || status === 304 || (init.method ?? 'GET') === 'HEAD';
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
        });
      },
    );
    request.once('error', reject);
    init.signal?.addEventListener('abort', () => request.destroy(new Error('aborted')), { once: true });
    request.end(body);
  });
}
