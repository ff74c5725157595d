import { lookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import { AppError } from '../errors';

/**
 * Where a URL an administrator typed may not lead (ASVS 1.3.6; shared/reference
 * reliability-security-performance.md §2.3): this machine, the private networks, the cloud's
 * metadata service, and the IPv6 forms that embed any of them. Each with the reason a refusal names.
 */
const BLOCKED_RANGES: { reason: string; subnet: string; prefix: number; family: 'ipv4' | 'ipv6' }[] = [
  { reason: 'this network', subnet: '0.0.0.0', prefix: 8, family: 'ipv4' },
  { reason: 'a private network (RFC 1918)', subnet: '10.0.0.0', prefix: 8, family: 'ipv4' },
  { reason: 'shared address space (carrier-grade NAT)', subnet: '100.64.0.0', prefix: 10, family: 'ipv4' },
  { reason: 'loopback', subnet: '127.0.0.0', prefix: 8, family: 'ipv4' },
  { reason: 'link-local (the cloud metadata service)', subnet: '169.254.0.0', prefix: 16, family: 'ipv4' },
  { reason: 'a private network (RFC 1918)', subnet: '172.16.0.0', prefix: 12, family: 'ipv4' },
  { reason: 'IETF protocol assignments', subnet: '192.0.0.0', prefix: 24, family: 'ipv4' },
  { reason: 'a private network (RFC 1918)', subnet: '192.168.0.0', prefix: 16, family: 'ipv4' },
  { reason: 'benchmarking', subnet: '198.18.0.0', prefix: 15, family: 'ipv4' },
  { reason: 'multicast', subnet: '224.0.0.0', prefix: 4, family: 'ipv4' },
  { reason: 'reserved', subnet: '240.0.0.0', prefix: 4, family: 'ipv4' },
  { reason: 'the unspecified address', subnet: '::', prefix: 128, family: 'ipv6' },
  { reason: 'loopback', subnet: '::1', prefix: 128, family: 'ipv6' },
  { reason: 'IPv4-compatible (an embedded IPv4 address)', subnet: '::', prefix: 96, family: 'ipv6' },
  { reason: 'IPv4-translated (an embedded IPv4 address)', subnet: '::ffff:0:0:0', prefix: 96, family: 'ipv6' },
  { reason: 'NAT64 (an embedded IPv4 address)', subnet: '64:ff9b::', prefix: 96, family: 'ipv6' },
  { reason: 'local NAT64 (an embedded IPv4 address)', subnet: '64:ff9b:1::', prefix: 48, family: 'ipv6' },
  { reason: '6to4 (an embedded IPv4 address)', subnet: '2002::', prefix: 16, family: 'ipv6' },
  { reason: 'a unique local network', subnet: 'fc00::', prefix: 7, family: 'ipv6' },
  { reason: 'link-local', subnet: 'fe80::', prefix: 10, family: 'ipv6' },
  { reason: 'multicast', subnet: 'ff00::', prefix: 8, family: 'ipv6' },
];

// One list a range, so a refusal can say which; an IPv4 range also covers its IPv4-mapped IPv6 form (::ffff:a.b.c.d).
const blockLists = BLOCKED_RANGES.map(({ reason, subnet, prefix, family }) => {
  const list = new net.BlockList();
  list.addSubnet(subnet, prefix, family);
  return { reason, list };
});

/** Why `address` (an IP literal) is not a public address, or null when it is one. */
export function blockedAddressReason(address: string): string | null {
  const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!family) return 'not an IP address';
  return blockLists.find(({ list }) => list.check(address, family))?.reason ?? null;
}

/** A URL the guard refuses: a 400 naming the URL's host and why. */
export class UnsafeTarget extends AppError {
  constructor(url: string, why: string) {
    super(400, 'unsafe_target', `${url} cannot be fetched: ${why}`);
  }
}

/** The ports an outside page is served on; an allowed host may use any. */
const WEB_PORTS = new Set(['', '80', '443']);
/** Redirects followed at most, each checked like the first URL. */
const MAX_REDIRECTS = 5;

export interface OutboundGuardOptions {
  /**
   * Hosts reachable although they are on this machine or a private network: a host name or
   * address, with `:port` to allow that port only (the embedded run's own simulators).
   */
  allow?: string[];
  /** The host name's addresses (tests play DNS with it); the system resolver by default. */
  resolve?: (host: string) => Promise<string[]>;
}

export interface GuardedRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** The whole answer's deadline (15 s). */
  timeoutMs?: number;
  /** A larger answer is refused (5 MB). */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface GuardedAnswer {
  /** The URL that answered, after the redirects. */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * The gate for URLs an administrator enters (a marketplace to scrape): only http(s), no
 * credentials, the web's ports, and hosts that are and stay public. A name is resolved and every
 * address checked before a request (what a browser's request interception asks), and `get`
 * checks again the address it actually connects to, so a name that resolves elsewhere a moment
 * later (DNS rebinding) gains nothing; every redirect is checked like the first URL.
 */
export class OutboundGuard {
  private readonly allowed: Set<string>;
  private readonly resolve: (host: string) => Promise<string[]>;

  constructor(options: OutboundGuardOptions = {}) {
    this.allowed = new Set((options.allow ?? []).map((entry) => entry.trim().toLowerCase()).filter(Boolean));
    this.resolve = options.resolve ?? (async (host) => (await lookup(host, { all: true, verbatim: true })).map((found) => found.address));
  }

  /** The URL parsed if it may be fetched as written; else UnsafeTarget naming why. Odd IPv4 spellings (2130706433, 0x7f.1) are read as the address they are. */
  parse(target: string): URL {
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new UnsafeTarget(target, 'not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeTarget(target, `only http and https are fetched, not ${url.protocol.slice(0, -1)}`);
    if (url.username || url.password) throw new UnsafeTarget(target, 'a user name or password in the URL is not sent');
    if (this.isAllowed(url)) return url;
    const host = hostOf(url);
    if (host === 'localhost' || host.endsWith('.localhost')) throw new UnsafeTarget(target, `${host} is this machine (loopback)`);
    if (net.isIP(host)) this.refuseBlocked(target, host, host);
    if (!WEB_PORTS.has(url.port)) throw new UnsafeTarget(target, `port ${url.port} is not a web port (80 or 443)`);
    return url;
  }

  /** parse(), and the host's name resolved: every address it resolves to must be public. */
  async check(target: string): Promise<URL> {
    const url = this.parse(target);
    const host = hostOf(url);
    if (this.isAllowed(url) || net.isIP(host)) return url;
    let addresses: string[];
    try {
      addresses = await this.resolve(host);
    } catch (error) {
      throw new UnsafeTarget(target, `${host} does not resolve (${(error as Error).message})`);
    }
    if (addresses.length === 0) throw new UnsafeTarget(target, `${host} does not resolve`);
    for (const address of addresses) this.refuseBlocked(target, host, address);
    return url;
  }

  /**
   * GET `target` with redirects followed by hand, each checked; the connection's address is
   * checked again as it is made. The body is read up to `maxBytes` (a larger one is refused).
   */
  async get(target: string, options: GuardedRequestOptions = {}): Promise<GuardedAnswer> {
    const answer = await this.fetch(target, { ...options, method: 'GET', body: undefined });
    return { ...answer, body: answer.body.toString('utf8') };
  }

  /**
   * A request to `target` as `check` allows it, its connection's address checked again; a GET's or
   * HEAD's redirects are followed by hand, each hop checked like the first (another method's
   * redirect is answered as it is). What a browser whose requests come here gets.
   */
  async fetch(target: string, options: GuardedRequestOptions = {}): Promise<Omit<GuardedAnswer, 'body'> & { body: Buffer }> {
    const method = (options.method ?? 'GET').toUpperCase();
    let current = target;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const url = await this.check(current);
      const answer = { url: url.toString(), ...(await this.request(url, options)) };
      const location = answer.headers.location;
      if (answer.status < 300 || answer.status >= 400 || !location || (method !== 'GET' && method !== 'HEAD')) return answer;
      current = new URL(location, url).toString();
    }
    throw new UnsafeTarget(target, `more than ${MAX_REDIRECTS} redirects`);
  }

  private request(url: URL, options: GuardedRequestOptions): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const maxBytes = options.maxBytes ?? 5_000_000;
    const timeoutMs = options.timeoutMs ?? 15_000;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(url, { method: options.method ?? 'GET', headers: options.headers, timeout: timeoutMs, signal: options.signal, lookup: this.isAllowed(url) ? undefined : this.connectLookup(url) }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) response.destroy(new UnsafeTarget(url.toString(), `the answer is larger than ${maxBytes} bytes`));
          else chunks.push(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`${url.host} did not answer within ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end(options.body);
    });
  }

  /** The resolver the socket connects with: the same check, on the addresses actually used. */
  private connectLookup(url: URL): LookupFunction {
    return (hostname, options, callback) => {
      this.resolve(hostname).then(
        (addresses) => {
          const refused = addresses.map((address) => ({ address, reason: blockedAddressReason(address) })).find((one) => one.reason !== null);
          if (refused || addresses.length === 0) {
            callback(new UnsafeTarget(url.toString(), refused ? `${hostname} now resolves to ${refused.address}, ${refused.reason}` : `${hostname} does not resolve`), '', 4);
            return;
          }
          const found = addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
          if (options.all) callback(null, found);
          else callback(null, found[0].address, found[0].family);
        },
        (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
      );
    };
  }

  private isAllowed(url: URL): boolean {
    const host = hostOf(url);
    return this.allowed.has(host) || this.allowed.has(`${host}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`);
  }

  private refuseBlocked(target: string, host: string, address: string): void {
    const reason = blockedAddressReason(address);
    if (reason) throw new UnsafeTarget(target, host === address ? `${address} is ${reason}` : `${host} resolves to ${address}, ${reason}`);
  }
}

/** The URL's host as an address or a name: IPv6 without its brackets, a name lowercased without its final dot. */
function hostOf(url: URL): string {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return host.toLowerCase().replace(/\.$/, '');
}
