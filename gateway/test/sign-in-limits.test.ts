import type { ServiceApp } from '@bo/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalAdmin, startHarness, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.close());

/** Password verifications the gateway made so far, read from its own /metrics (never from timing). */
async function passwordChecks(): Promise<number> {
  const text = (await (h.app as ServiceApp).operations.inject({ method: 'GET', url: '/metrics' })).body;
  return text
    .split('\n')
    .filter((line) => line.startsWith('gateway_password_checks_total{'))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const attempt = (remoteAddress: string, username: string, password = 'wrong password') =>
  h.app.inject({ method: 'POST', url: '/api/admin/login', remoteAddress, payload: { username, password } });

const statuses = (responses: { statusCode: number }[]) =>
  responses.reduce<Record<number, number>>((counts, r) => ({ ...counts, [r.statusCode]: (counts[r.statusCode] ?? 0) + 1 }), {});

describe('password sign-in limits under parallel attempts', () => {
  it('checks at most 10 of 60 parallel wrong passwords for one account and refuses the rest with 429', async () => {
    const { username, password } = await createLocalAdmin(h.prisma, 'parallel-target');
    const before = await passwordChecks();
    const responses = await Promise.all(Array.from({ length: 60 }, () => attempt('203.0.113.50', username)));
    expect(statuses(responses)).toEqual({ 401: 10, 429: 50 });
    expect((await passwordChecks()) - before).toBe(10);
    expect((await attempt('203.0.113.50', username, password)).statusCode).toBe(429);
    // Another address is not locked out by the first one's failures.
    expect((await attempt('203.0.113.51', username, password)).statusCode).toBe(200);
  });

  it('checks at most 100 parallel attempts from one address, whatever the accounts', async () => {
    const before = await passwordChecks();
    const responses = await Promise.all(Array.from({ length: 130 }, (_, i) => attempt('203.0.113.60', `spray-${i}`)));
    expect(statuses(responses)).toEqual({ 401: 100, 429: 30 });
    expect((await passwordChecks()) - before).toBe(100);
    expect((await attempt('203.0.113.61', 'spray-0')).statusCode).toBe(401);
  });

  it('holds one account at a ceiling of 100 failures from everywhere', async () => {
    const { username, password } = await createLocalAdmin(h.prisma, 'distributed-target');
    for (let client = 0; client < 10; client++) {
      const responses = await Promise.all(Array.from({ length: 10 }, () => attempt(`198.51.100.${client}`, username)));
      expect(statuses(responses)).toEqual({ 401: 10 });
    }
    expect((await attempt('198.51.100.200', username, password)).statusCode).toBe(429);
  });

  it('forgets an address\'s failures for the account after it signs in', async () => {
    const { username, password } = await createLocalAdmin(h.prisma, 'forgetful');
    for (let i = 0; i < 9; i++) expect((await attempt('192.0.2.77', username)).statusCode).toBe(401);
    expect((await attempt('192.0.2.77', username, password)).statusCode).toBe(200);
    for (let i = 0; i < 10; i++) expect((await attempt('192.0.2.77', username)).statusCode).toBe(401);
    expect((await attempt('192.0.2.77', username)).statusCode).toBe(429);
  });
});
