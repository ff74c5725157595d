import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes, httpMethods, type AnyRouteContract } from '@bo/proto';
import { signInAsCustomer, signInAsNonAdmin, signInLocalAdmin, startHarness, type Harness } from './support/harness';

// Driven by the contracts themselves, so a route added to proto is in the matrix the moment it
// exists: every declared route with every kind of caller, and every method a path does not list.
let h: Harness;
let nonAdmin: { cookie: string; csrfToken: string };
let admin: { cookie: string; csrfToken: string };
let customer: { cookie: string; csrfToken: string };

beforeAll(async () => {
  h = await startHarness();
  const cookie = await signInAsNonAdmin(h, 'matrix-user@example.com');
  nonAdmin = { cookie, csrfToken: (await h.app.inject({ method: 'GET', url: '/api/auth/csrf', headers: { cookie } })).json().token };
  admin = await signInLocalAdmin(h.app, h.prisma, 'matrix-root');
  customer = await signInAsCustomer(h);
});
afterAll(() => h?.close());

const concrete = (path: string) => path.replace(/:[A-Za-z]\w*/g, 'x');
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const label = (route: AnyRouteContract) => `${route.method} ${route.path}`;

function send(route: { method: string; path: string }, caller?: { cookie: string; csrfToken?: string }) {
  const headers: Record<string, string> = {};
  if (caller) headers.cookie = caller.cookie;
  if (caller?.csrfToken) headers['x-csrf-token'] = caller.csrfToken;
  return h.app.inject({ method: route.method as 'GET', url: concrete(route.path), headers, payload: STATE_CHANGING.has(route.method) ? {} : undefined });
}

// Signing out would end the session the rest of the matrix uses; those are proven in security.test.ts and customer-sign-in.test.ts.
const endsTheSession = (route: AnyRouteContract) => ['/api/logout', '/api/admin/logout', '/api/customer/logout'].includes(route.path);

describe('authorization matrix from the route contracts', () => {
  it('covers a contract of every access level', () => {
    expect(new Set(allRoutes.map((route) => route.access))).toEqual(new Set(['public', 'customer', 'admin', 'internal']));
  });

  it('refuses a customer session with 403 on every admin route, and lets it reach every customer route', async () => {
    const adminRoutes = allRoutes.filter((r) => r.access === 'admin');
    const customerRoutes = allRoutes.filter((r) => r.access === 'customer');
    expect(customerRoutes.length).toBeGreaterThan(0);
    for (const route of adminRoutes) expect((await send(route, customer)).statusCode, `${label(route)} customer`).toBe(403);
    for (const route of customerRoutes) expect((await send(route, customer)).statusCode, `${label(route)} customer`).not.toBeOneOf([401, 403]);
  });

  it('refuses anonymous callers with 401 and signed-in non-admins with 403 on every admin and customer route', async () => {
    for (const route of allRoutes.filter((r) => r.access === 'admin' || r.access === 'customer')) {
      expect((await send(route)).statusCode, `${label(route)} anonymous`).toBe(401);
      expect((await send(route, nonAdmin)).statusCode, `${label(route)} non-admin`).toBe(403);
      expect((await send(route, admin)).statusCode, `${label(route)} admin`).not.toBeOneOf([401, 403]);
    }
  });

  it('lets anyone reach a public route', async () => {
    for (const route of allRoutes.filter((r) => r.access === 'public' && !endsTheSession(r))) {
      const response = await send(route);
      expect(response.statusCode, `${label(route)} anonymous`).not.toBeOneOf([403, 404]);
      // /api/auth/user answers 401 itself when nobody is signed in; the access layer never does here.
      if (response.statusCode === 401) expect(response.json().error, label(route)).not.toBe('Authentication required');
    }
  });

  it('never exposes an internal route, whoever asks', async () => {
    for (const route of allRoutes.filter((r) => r.access === 'internal')) {
      for (const caller of [undefined, nonAdmin, admin]) expect((await send(route, caller)).statusCode, label(route)).toBe(404);
    }
  });

  it('answers 404 for every method a declared path does not list', async () => {
    const declared = new Map<string, Set<string>>();
    for (const route of allRoutes) declared.set(route.path, (declared.get(route.path) ?? new Set()).add(route.method));
    // GET /api/woocommerce/order/search is GET /api/woocommerce/order/:id with id "search": not undeclared.
    const matchedByAnother = (method: string, path: string) =>
      allRoutes.some((route) => route.method === method && route.path !== path && new RegExp(`^${route.path.replace(/:[A-Za-z]\w*/g, '[^/]+')}$`).test(path));
    for (const [path, methods] of declared) {
      for (const method of httpMethods.filter((m) => !methods.has(m) && !matchedByAnother(m, path))) {
        for (const caller of [undefined, admin]) expect((await send({ method, path }, caller)).statusCode, `${method} ${path}`).toBe(404);
      }
    }
  });

  it('requires the CSRF token of the session on every state-changing route', async () => {
    const writes = allRoutes.filter((r) => STATE_CHANGING.has(r.method) && r.access !== 'internal' && !r.webhook);
    expect(writes.length).toBeGreaterThan(0);
    for (const route of writes) {
      const withoutToken = await send(route, { cookie: admin.cookie });
      expect(withoutToken.statusCode, `${label(route)} without token`).toBe(403);
      expect(withoutToken.json().error, label(route)).toMatch(/csrf/i);
      const foreignToken = await send(route, { cookie: admin.cookie, csrfToken: nonAdmin.csrfToken });
      expect(foreignToken.statusCode, `${label(route)} with another session's token`).toBe(403);
    }
    // A customer's session is held to the same rule on the routes it may call.
    for (const route of writes.filter((r) => r.access === 'customer' || r.path.startsWith('/api/customer/'))) {
      if (endsTheSession(route)) continue;
      expect((await send(route, { cookie: customer.cookie })).statusCode, `${label(route)} customer without token`).toBe(403);
      expect((await send(route, { cookie: customer.cookie, csrfToken: admin.csrfToken })).statusCode, `${label(route)} customer with another session's token`).toBe(403);
    }
  });
});

describe('bodies of the wrong type', () => {
  // Forwarded bodies are judged by the owning service (its own tests send the same bodies).
  it('answers 400 naming the problem for a number, a string, an array, true or null as the JSON body', async () => {
    const routes = allRoutes.filter((r) => r.body && r.owner === 'gateway');
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      for (const body of ['5', '"text"', '[]', 'true', 'null']) {
        const response = await h.app.inject({
          method: route.method as 'POST',
          url: concrete(route.path),
          headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrfToken, 'content-type': 'application/json' },
          payload: body,
        });
        expect(response.statusCode, `${label(route)} body ${body}`).toBe(400);
        expect(response.json().error, `${label(route)} body ${body}`).toMatch(/^Invalid body: /);
      }
    }
  });
});
