import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayEnvSchema } from '../src/config';
import { startHarness, TEST_ENV, upstreamEnv, type Harness } from './support/harness';

// A gateway on a real port with short limits; raw TCP clients play the slow client.
let h: Harness;
let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  h = await startHarness();
  app = await h.buildAnother({ HTTP_HEADERS_TIMEOUT_MS: '400', HTTP_REQUEST_TIMEOUT_MS: '800', HTTP_KEEP_ALIVE_TIMEOUT_MS: '400' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => h?.close());

/** A connection whose received bytes are collected; `closed` settles when the server ends it. */
function open(): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let data = '';
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, received: () => data, closed }));
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('error', reject);
  });
}

/** Fails when the server has not closed the connection within the bound (well above the limits set). */
const cutOffWithin = (closed: Promise<void>, ms: number) =>
  Promise.race([closed.then(() => 'closed'), new Promise((resolve) => setTimeout(() => resolve('still open'), ms).unref())]);

describe('slow clients', () => {
  it('cuts off a client that never finishes its headers, even one trickling bytes', async () => {
    const { socket, received, closed } = await open();
    socket.write('GET /api/auth/user HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const trickle = setInterval(() => !socket.destroyed && socket.write('X-Slow: a\r\n'), 100);
    const outcome = await cutOffWithin(closed, 5_000);
    clearInterval(trickle);
    socket.destroy();
    expect(outcome).toBe('closed');
    expect(received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts off a client that never finishes its body', async () => {
    const { socket, received, closed } = await open();
    socket.write('POST /api/admin/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"username":');
    const outcome = await cutOffWithin(closed, 5_000);
    socket.destroy();
    expect(outcome).toBe('closed');
    expect(received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a kept-alive connection that stays idle', async () => {
    const { socket, received, closed } = await open();
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    const outcome = await cutOffWithin(closed, 5_000);
    socket.destroy();
    expect(received()).toMatch(/^HTTP\/1\.1 200/);
    expect(outcome).toBe('closed');
  });

  it('has limits by default, the header limit within the request limit', () => {
    const config = gatewayEnvSchema.parse({ ...TEST_ENV, ...upstreamEnv('http://127.0.0.1:1') });
    expect(config).toMatchObject({ HTTP_HEADERS_TIMEOUT_MS: 10_000, HTTP_REQUEST_TIMEOUT_MS: 30_000, HTTP_KEEP_ALIVE_TIMEOUT_MS: 72_000 });
    expect(gatewayEnvSchema.safeParse({ ...TEST_ENV, ...upstreamEnv('http://127.0.0.1:1'), HTTP_HEADERS_TIMEOUT_MS: '40000' }).error?.issues[0].path).toEqual(['HTTP_HEADERS_TIMEOUT_MS']);
  });
});
