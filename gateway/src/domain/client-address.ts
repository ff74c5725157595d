import { BlockList, isIP } from 'node:net';

/**
 * Which peers may tell us the client's address (ASVS 15.3.4): a hop count, or a list of CIDRs.
 * `true` ("trust everyone") is refused: the left-most X-Forwarded-For entry is attacker-chosen.
 */
export type TrustProxy = { kind: 'hops'; hops: number } | { kind: 'cidrs'; list: BlockList; text: string };

export function parseTrustProxy(raw: string): TrustProxy {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return { kind: 'hops', hops: Number(text) };
  if (text === 'true' || text === '') throw new Error('must be a hop count or a comma list of CIDRs, never "true"');
  const list = new BlockList();
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0) throw new Error(`"${entry}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (!Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) throw new Error(`"${entry}" has a bad prefix length`);
    list.addSubnet(address, bits, type);
  }
  return { kind: 'cidrs', list, text };
}

/** '::ffff:10.0.0.1' and '10.0.0.1' are one client. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function isTrustedHop(address: string, trust: TrustProxy, index: number): boolean {
  if (trust.kind === 'hops') return index < trust.hops;
  const family = isIP(address);
  return family !== 0 && trust.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address: walk from the TCP peer back through X-Forwarded-For while the current
 * hop is a trusted proxy; the first untrusted hop is the client. A peer we do not trust cannot
 * choose its address, however many X-Forwarded-For entries it sends.
 */
export function clientAddress(peer: string, forwardedFor: string | string[] | undefined, trust: TrustProxy): string {
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .reverse();
  const chain = [normalize(peer), ...forwarded.map(normalize)];
  let index = 0;
  while (index < chain.length - 1 && isTrustedHop(chain[index], trust, index)) index += 1;
  return chain[index];
}

/** True when the peer is a trusted proxy, i.e. its X-Forwarded-Proto may be believed. */
export function isTrustedPeer(peer: string, trust: TrustProxy): boolean {
  return isTrustedHop(normalize(peer), trust, 0);
}

/** The client address of an HTTP request under the configured trust. */
export function requestClientAddress(request: { socket: { remoteAddress?: string }; headers: Record<string, string | string[] | undefined> }, trust: TrustProxy): string {
  return clientAddress(request.socket.remoteAddress ?? '', request.headers['x-forwarded-for'], trust);
}
