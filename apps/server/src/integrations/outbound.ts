import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { DELIVERY_RESPONSE_MAX_BYTES, type DeliveryError } from '@vrtc/contract';

/**
 * Outbound HTTP for integrations (decision 026): a receiver's URL is given by an organisation's
 * staff, so the server must not be made to reach what only it can reach: loopback, private and
 * link-local networks, cloud metadata. The address is checked where the connection is made (the
 * socket's DNS lookup), so a name that resolves to a public address when saved and a private one
 * later (DNS rebinding) is still refused. OUTBOUND_ALLOW_PRIVATE lists hosts, addresses and narrow
 * ranges that may be reached anyway (tests, a receiver on the same network).
 */

/** Addresses no delivery goes to unless allowed. */
const REFUSED = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, with the metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, and IPv4-compatible (::127.0.0.1 reaches 127.0.0.1)
  ['fc00::', 7], // unique local, fd00::/8 among them (fd00:ec2::254, a metadata address)
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv6');
}

/** Is `address` one no delivery goes to unless allowed (an IPv4-mapped one by its IPv4 part)? */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  const family = net.isIP(address);
  return family !== 0 && REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Cloud metadata addresses: let through only when OUTBOUND_ALLOW_PRIVATE names the address itself,
 * never by a range or a host name that comes to resolve to one.
 */
const METADATA = new net.BlockList();
METADATA.addAddress('169.254.169.254', 'ipv4');
METADATA.addAddress('fd00:ec2::254', 'ipv6');

/**
 * What OUTBOUND_ALLOW_PRIVATE lets through, scoped: host names as given (at any address but a
 * metadata one), addresses, and ranges (config.ts refuses one wider than a site's network: /16
 * for IPv4, /48 for IPv6).
 */
export class OutboundPolicy {
  private readonly hosts = new Set<string>();
  private readonly addresses = new net.BlockList();
  private readonly ranges = new net.BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const family = net.isIP(address);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (family === 0) this.hosts.add(entry.toLowerCase());
      else if (prefix === undefined) this.addresses.addAddress(address, type);
      else this.ranges.addSubnet(address, Number(prefix), type);
    }
  }

  /** May a connection to `address` (resolved from `host`) be made? */
  permits(host: string, address: string): boolean {
    const family = net.isIP(address);
    if (family === 0) return false;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (this.addresses.check(address, type)) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped) return this.permits(host, mapped);
    if (METADATA.check(address, type)) return false;
    if (this.hosts.has(host.toLowerCase()) || this.ranges.check(address, type)) return true;
    return !REFUSED.check(address, type);
  }
}

/** The error a refused address fails the connection with. */
class AddressRefused extends Error {
  readonly code = 'EADDRREFUSED';
}

/** Checks a URL's host before saving it: a literal or resolved refused address is refused. */
export async function isRefusedUrl(policy: OutboundPolicy, url: string): Promise<boolean> {
  const host = hostOf(new URL(url));
  if (net.isIP(host)) return !policy.permits(host, host);
  try {
    const addresses = await dns.promises.lookup(host, { all: true });
    return addresses.length > 0 && addresses.every(({ address }) => !policy.permits(host, address));
  } catch {
    return false; // not resolvable now: it may be later, and is checked again on every send
  }
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

export interface OutboundRequest {
  method: 'GET' | 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface OutboundAnswer {
  /** null when no answer came (error says why). */
  statusCode: number | null;
  /** The first DELIVERY_RESPONSE_MAX_BYTES of the answer, as text (answerText). */
  body: string | null;
  durationMs: number;
  error: DeliveryError | null;
  /** The answer's headers (HEADERS_KEPT of them, values cut at HEADER_VALUE_MAX); {} without one. */
  headers: Record<string, string>;
  /**
   * The answer came from a loopback, private, link-local or metadata address (let through by
   * OUTBOUND_ALLOW_PRIVATE): what it says is not shown to the organisation (test send).
   */
  privateAddress: boolean;
  /** The Retry-After header, as sent. */
  retryAfter: string | null;
  /** The request was aborted by the caller (the server closing): not an attempt. */
  aborted: boolean;
}

/** The socket's DNS lookup, keeping only the addresses the policy permits. */
function checkedLookup(policy: OutboundPolicy): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const list = addresses as dns.LookupAddress[];
      const usable = list.filter(({ address }) => policy.permits(hostname, address));
      if (usable.length === 0) {
        return callback(new AddressRefused(`${hostname}: refused address`), '', 4);
      }
      if (options.all) return callback(null, usable as unknown as string, 4);
      const first = usable[0]!;
      callback(null, first.address, first.family);
    });
  };
}

/** Sends one request through the policy; never throws. */
export function send(policy: OutboundPolicy, request: OutboundRequest): Promise<OutboundAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined = undefined;
    const finish = (answer: Omit<OutboundAnswer, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...answer, durationMs: elapsed() });
    };
    const failed = (error: DeliveryError, aborted = false) =>
      finish({
        statusCode: null,
        body: null,
        headers: {},
        privateAddress: false,
        error,
        retryAfter: null,
        aborted,
      });
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      failed('network_error');
      return;
    }
    const host = hostOf(url);
    // A literal address never goes through the lookup below: checked here.
    if (net.isIP(host) && !policy.permits(host, host)) {
      failed('address_refused');
      return;
    }
    const transport = url.protocol === 'https:' ? https : http;
    const outgoing = transport.request(url, {
      method: request.method,
      headers: {
        ...request.headers,
        ...(request.body !== undefined
          ? { 'content-length': String(Buffer.byteLength(request.body)) }
          : {}),
      },
      lookup: checkedLookup(policy),
      agent: false,
    });
    timer = setTimeout(() => {
      outgoing.destroy();
      failed('timeout');
    }, request.timeoutMs);
    request.signal?.addEventListener('abort', () => {
      outgoing.destroy();
      failed('network_error', true);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof AddressRefused || error.code === 'EADDRREFUSED') {
        failed('address_refused');
      } else if (error.code === 'ECONNREFUSED') failed('connection_refused');
      else failed('network_error');
    });
    outgoing.on('response', (response) => readAnswer(response, finish));
    outgoing.end(request.body);
  });
}

/**
 * An answer's bytes as text that can be stored and shown whatever they were: UTF-8, an invalid
 * sequence (or one cut at the limit) and NUL (which PostgreSQL's text refuses) as U+FFFD.
 */
export const answerText = (bytes: Buffer) => bytes.toString('utf8').replaceAll('\u0000', '\ufffd');

/** Keeps the first DELIVERY_RESPONSE_MAX_BYTES of an answer and finishes with it at its end. */
function readAnswer(
  response: http.IncomingMessage,
  finish: (answer: Omit<OutboundAnswer, 'durationMs'>) => void,
): void {
  const chunks: Buffer[] = [];
  let kept = 0;
  const remote = response.socket?.remoteAddress ?? '';
  const done = () =>
    finish({
      statusCode: response.statusCode ?? null,
      body: answerText(Buffer.concat(chunks)),
      headers: keptHeaders(response.headers),
      privateAddress: net.isIP(remote) !== 0 && isPrivateAddress(remote),
      error: null,
      retryAfter: headerText(response.headers['retry-after']),
      aborted: false,
    });
  response.on('data', (chunk: Buffer) => {
    chunks.push(chunk.subarray(0, DELIVERY_RESPONSE_MAX_BYTES - kept));
    kept += Math.min(chunk.length, DELIVERY_RESPONSE_MAX_BYTES - kept);
    // What is kept is in: the rest is never read (an answer of gigabytes costs nothing).
    if (kept >= DELIVERY_RESPONSE_MAX_BYTES) {
      done();
      response.destroy();
    }
  });
  response.on('end', done);
  response.on('error', done);
}

/** Headers shown of an answer: at most this many, each value at most this long. */
const HEADERS_KEPT = 30;
const HEADER_VALUE_MAX = 256;

function keptHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers).slice(0, HEADERS_KEPT)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    kept[name] = answerText(Buffer.from(text.slice(0, HEADER_VALUE_MAX)));
  }
  return kept;
}

const headerText = (value: string | string[] | undefined) =>
  value === undefined ? null : Array.isArray(value) ? (value[0] ?? null) : value;
