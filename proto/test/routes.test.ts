import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allRoutes, defineRoute, domainServiceNames, serviceNames, type RouteAccess } from '../src';

const base = { owner: 'pricing' as const, method: 'GET' as const, summary: 's', category: 'c', reply: z.object({ ok: z.boolean() }), example: { reply: { ok: true } } };

describe('route contracts', () => {
  it('refuses a contract without a valid access, with path parameters its schema lacks, or with a wrong example', () => {
    expect(() => defineRoute({ ...base, path: '/api/x', access: undefined as unknown as RouteAccess })).toThrow(/access must be one of/);
    expect(() => defineRoute({ ...base, path: '/api/x/:id', access: 'admin' })).toThrow(/params schema must have exactly the keys id/);
    expect(() => defineRoute({ ...base, path: '/api/x/:id', access: 'admin', params: z.object({ other: z.string() }) })).toThrow(/keys id/);
    expect(() => defineRoute({ ...base, path: '/api/x', access: 'admin', example: { reply: { ok: 'yes' } as never } })).toThrow(/example reply/);
    expect(() => defineRoute({ ...base, method: 'POST', path: '/api/x', access: 'admin', cacheable: true })).toThrow(/only public GETs/);
    expect(() => defineRoute({ ...base, path: '/api/x', access: 'admin', callers: ['gateway'] })).toThrow(/only internal routes name their callers/);
  });

  it('names the callers of every internal route, each a registered process other than the owner', () => {
    for (const route of allRoutes.filter((r) => r.access === 'internal')) {
      expect(route.callers?.length, `${route.method} ${route.path} names no callers`).toBeGreaterThan(0);
      for (const caller of route.callers!) {
        expect(serviceNames, `${route.path}: ${caller}`).toContain(caller);
        expect(caller, route.path).not.toBe(route.owner);
      }
    }
  });

  it('declares each method and path once, each owned by a registered process', () => {
    const keys = allRoutes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const route of allRoutes) expect(serviceNames).toContain(route.owner);
  });

  it('gives every domain service its config-status and dead-letter routes', () => {
    for (const name of domainServiceNames) {
      expect(allRoutes).toContainEqual(expect.objectContaining({ owner: name, access: 'internal', path: `/internal/${name}/config-status` }));
      expect(allRoutes).toContainEqual(expect.objectContaining({ owner: name, access: 'admin', path: `/api/admin/events/${name}/dead-letters` }));
    }
  });
});
