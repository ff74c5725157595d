import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedAddressReason, OutboundGuard, UnsafeTarget } from '../../src/outside/outbound-guard';

/** A public address for names the tests resolve (example.com's): never connected to. */
const PUBLIC = '93.184.215.14';

/** DNS as these tests play it: each name its addresses; a name with a list of answers gives the next each time. */
function playedDns(names: Record<string, string[] | string[][]>) {
  const asked = new Map<string, number>();
  return async (host: string): Promise<string[]> => {
    const answers = names[host];
    if (!answers) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    if (!Array.isArray(answers[0])) return answers as string[];
    const turn = asked.get(host) ?? 0;
    asked.set(host, turn + 1);
    const series = answers as string[][];
    return series[Math.min(turn, series.length - 1)];
  };
}

const refusal = async (work: Promise<unknown>): Promise<string> => {
  const error = await work.then(() => null, (failure: unknown) => failure);
  expect(error, 'refused').toBeInstanceOf(UnsafeTarget);
  expect((error as UnsafeTarget).status).toBe(400);
  return (error as Error).message;
};

describe('the outbound guard: URLs an administrator enters never reach this machine or a private network', () => {
  const guard = new OutboundGuard({
    resolve: playedDns({
      'shop.example.mn': [PUBLIC],
      'internal.example.mn': ['10.1.2.3'],
      'metadata.example.mn': ['169.254.169.254'],
      'mixed.example.mn': [PUBLIC, '192.168.1.10'],
      'six.example.mn': ['fd12:3456::1'],
      'mapped.example.mn': ['::ffff:127.0.0.1'],
    }),
  });

  // At least 30 crafted targets, each with the reason its refusal gives.
  const crafted: [string, string][] = [
    ['http://127.0.0.1/', 'loopback'],
    ['http://127.255.255.254:443/', 'loopback'],
    ['http://localhost/', 'loopback'],
    ['http://LOCALHOST./admin', 'loopback'],
    ['http://api.localhost/', 'loopback'],
    ['http://2130706433/', '127.0.0.1 is loopback'],
    ['http://0x7f.1/', '127.0.0.1 is loopback'],
    ['http://0177.0.0.1/', '127.0.0.1 is loopback'],
    ['http://127.1/', '127.0.0.1 is loopback'],
    ['http://0/', '0.0.0.0 is this network'],
    ['http://0.0.0.0/', 'this network'],
    ['http://10.0.0.1/', 'RFC 1918'],
    ['http://172.16.0.1/', 'RFC 1918'],
    ['http://172.31.255.255/', 'RFC 1918'],
    ['http://192.168.0.1/', 'RFC 1918'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://0xa9fea9fe/', 'cloud metadata'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://198.18.0.1/', 'benchmarking'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[::1]/', 'loopback'],
    ['http://[::]/', 'unspecified'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[0:0:0:0:0:ffff:a9fe:a9fe]/', 'cloud metadata'],
    ['http://[fd00::1]/', 'unique local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[64:ff9b::7f00:1]/', 'NAT64'],
    ['http://[2002:7f00:1::]/', '6to4'],
    ['http://[::a9fe:a9fe]/', 'IPv4-compatible'],
    ['http://[64:ff9b:1::a00:1]/', 'local NAT64'],
    ['http://internal.example.mn/', 'internal.example.mn resolves to 10.1.2.3'],
    ['http://metadata.example.mn/', 'cloud metadata'],
    ['http://mixed.example.mn/', 'resolves to 192.168.1.10'],
    ['http://six.example.mn/', 'unique local'],
    ['http://mapped.example.mn/', 'loopback'],
    ['http://nowhere.example.mn/', 'does not resolve'],
    ['http://shop.example.mn:8080/', 'port 8080 is not a web port'],
    ['http://shop.example.mn:22/', 'port 22 is not a web port'],
    ['file:///etc/passwd', 'not file'],
    ['ftp://shop.example.mn/', 'not ftp'],
    ['gopher://shop.example.mn:70/', 'not gopher'],
    ['javascript:alert(1)', 'not javascript'],
    ['data:text/html,hi', 'not data'],
    ['http://admin:secret@shop.example.mn/', 'user name or password'],
    ['not a url', 'not a URL'],
  ];

  it(`refuses every one of ${crafted.length} crafted targets, saying why`, async () => {
    expect(crafted.length).toBeGreaterThanOrEqual(30);
    const reasons = await Promise.all(crafted.map(async ([target]) => refusal(guard.check(target))));
    crafted.forEach(([target, why], index) => expect(reasons[index], target).toContain(why));
  });

  it('lets a public https or http URL on the web ports through, and reads the addresses as they are', async () => {
    for (const target of ['https://shop.example.mn/games?page=2', 'http://shop.example.mn:80/', `http://${PUBLIC}/`, 'https://[2606:4700::6810:84e5]/']) {
      expect((await guard.check(target)).toString()).toBe(new URL(target).toString());
    }
    expect(blockedAddressReason('8.8.8.8')).toBeNull();
    expect(blockedAddressReason('::ffff:8.8.8.8')).toBeNull();
    expect(blockedAddressReason('172.32.0.1')).toBeNull();
  });

  describe('on the wire', () => {
    let server: http.Server;
    let port: number;
    const seen: string[] = [];

    beforeAll(async () => {
      server = http.createServer((request, response) => {
        seen.push(request.url!);
        const redirects: Record<string, string> = {
          '/to-metadata': 'http://169.254.169.254/latest/meta-data/iam',
          '/to-loopback-name': `http://localhost:${port}/page`,
          '/to-private-name': 'http://internal.example.mn/',
          '/to-page': '/page',
          '/loop': '/loop',
        };
        if (redirects[request.url!]) response.writeHead(302, { location: redirects[request.url!] }).end();
        else if (request.url === '/big') response.end('x'.repeat(2_000));
        else response.end(`page ${request.url}`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reaches an allowed host on this machine (the embedded run\'s simulator), follows its redirects, and stops at a larger answer than allowed', async () => {
      const allowed = new OutboundGuard({ allow: [`127.0.0.1:${port}`] });
      expect(await allowed.get(`http://127.0.0.1:${port}/to-page`)).toMatchObject({ url: `http://127.0.0.1:${port}/page`, status: 200, body: 'page /page' });
      expect(await refusal(allowed.get(`http://127.0.0.1:${port}/big`, { maxBytes: 1_000 }))).toContain('larger than 1000 bytes');
      expect(await refusal(allowed.get(`http://127.0.0.1:${port}/loop`))).toContain('more than 5 redirects');
      // The allowance is for that port only.
      expect(await refusal(allowed.check(`http://127.0.0.1:${port + 1}/`))).toContain('127.0.0.1 is loopback');
    });

    it('checks every redirect like the first URL: to the metadata service, to a loopback name, to a name resolving privately', async () => {
      const allowed = new OutboundGuard({ allow: [`127.0.0.1:${port}`], resolve: playedDns({ 'internal.example.mn': ['10.0.0.7'] }) });
      seen.length = 0;
      expect(await refusal(allowed.get(`http://127.0.0.1:${port}/to-metadata`))).toContain('169.254.169.254 is link-local (the cloud metadata service)');
      expect(await refusal(allowed.get(`http://127.0.0.1:${port}/to-loopback-name`))).toContain('loopback');
      expect(await refusal(allowed.get(`http://127.0.0.1:${port}/to-private-name`))).toContain('internal.example.mn resolves to 10.0.0.7');
      // Only the first hops reached the server: nothing was fetched from where they pointed.
      expect(seen).toEqual(['/to-metadata', '/to-loopback-name', '/to-private-name']);
    });

    it('refuses a name that resolves publicly when checked and to this machine when connected (DNS rebinding)', async () => {
      const rebinding = new OutboundGuard({ resolve: playedDns({ 'rebind.example.mn': [[PUBLIC], ['127.0.0.1']] }) });
      // The refusal is the guard's at connect time (nothing listens on port 80 here, so any other path would fail otherwise).
      const message = await refusal(rebinding.get('http://rebind.example.mn/'));
      expect(message).toContain('rebind.example.mn now resolves to 127.0.0.1, loopback');
    });
  });
});
