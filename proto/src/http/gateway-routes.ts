import { z } from 'zod';
import { defineRoute, redirectReply, successReply } from './contract';
import { runListQuery, runRoutesOf, runSchema, scheduleSchema } from '../runs';
import { alertListQuery, alertSchema, exampleAlert } from '../alerts';
import { auditEntrySchema, auditListQuery, exampleAuditEntry } from '../audit';
import { exportDatabase, exportDatabaseEncrypted, importDatabase, openEncryptedExport } from '../migration';
import { serviceNames, type ServiceName } from '../services';
import { configItemSchema } from './platform-routes';

/** The signed-in person as the dashboard sees them. */
export const authUserSchema = z.object({
  id: z.string(),
  username: z.string().optional(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  isAdmin: z.boolean(),
});
export type AuthUser = z.infer<typeof authUserSchema>;

export const apiIndex = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api',
  access: 'public',
  reply: z.object({ name: z.string(), openapi: z.string() }),
  summary: 'What this API is and where its OpenAPI document lives',
  category: 'System',
  example: { reply: { name: 'Back-office API', openapi: '/api/openapi.json' } },
});

export const openApiDocument = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/openapi.json',
  access: 'public',
  reply: z.record(z.string(), z.unknown()),
  summary: 'The OpenAPI 3.1 document of every route, built from the contracts',
  category: 'System',
  example: { reply: { openapi: '3.1.0' } },
});

export const systemInfo = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/admin/system',
  access: 'admin',
  reply: z.object({ runtime: z.object({ node: z.string() }) }),
  summary: 'The runtime the servers run on (shown in the sidebar)',
  category: 'System',
  example: { reply: { runtime: { node: 'v20.20.0' } } },
});

export const currentUser = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/auth/user',
  // Anyone may ask; the answer is 401 without a session.
  access: 'public',
  reply: authUserSchema,
  summary: 'The signed-in user, or 401',
  category: 'Authentication',
  example: { reply: { id: 'b3c1', email: 'admin@example.com', firstName: 'Ada', lastName: null, profileImageUrl: null, isAdmin: true } },
});

export const csrfToken = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/auth/csrf',
  access: 'public',
  reply: z.object({ token: z.string() }),
  summary: 'The token every state-changing call sends back as x-csrf-token',
  category: 'Authentication',
  example: { reply: { token: 'c2lnbmVkLXRva2Vu' } },
});

export const oidcLogin = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/login',
  access: 'public',
  replyKind: 'redirect',
  reply: redirectReply,
  summary: 'Start admin sign-in at the OpenID Connect provider (a browser navigation)',
  category: 'Authentication',
  example: { reply: undefined },
});

export const oidcCallback = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/callback',
  access: 'public',
  replyKind: 'redirect',
  query: z.record(z.string(), z.string()),
  reply: redirectReply,
  summary: 'Where the OpenID Connect provider sends the browser back',
  category: 'Authentication',
  example: { query: { code: 'abc', state: 'xyz' }, reply: undefined },
});

export const logout = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/logout',
  access: 'public',
  replyKind: 'redirect',
  reply: redirectReply,
  summary: 'Sign out (a browser navigation back to /login)',
  category: 'Authentication',
  example: { reply: undefined },
});

export const passwordLogin = defineRoute({
  owner: 'gateway',
  method: 'POST',
  path: '/api/admin/login',
  access: 'public',
  body: z.object({ username: z.string().trim().min(1).max(100), password: z.string().min(1).max(200) }),
  reply: successReply.extend({ username: z.string() }),
  summary: 'Password sign-in for local administrator accounts (also the AI admin login of document 2)',
  category: 'Authentication',
  example: { body: { username: 'ops', password: 'a long password' }, reply: { success: true, username: 'ops' } },
});

export const passwordLogout = defineRoute({
  owner: 'gateway',
  method: 'POST',
  path: '/api/admin/logout',
  access: 'public',
  reply: successReply,
  summary: 'Sign out from a script or the AI admin',
  category: 'Authentication',
  example: { reply: { success: true } },
});

const userParams = z.object({ id: z.string().min(1).max(100) });
const sessionsEnded = successReply.extend({ sessionsEnded: z.number().int() });

export const disableUser = defineRoute({
  owner: 'gateway',
  method: 'POST',
  path: '/api/admin/users/:id/disable',
  access: 'admin',
  params: userParams,
  reply: sessionsEnded,
  summary: 'Disable an account and end its sessions at once',
  category: 'Users',
  example: { params: { id: 'local:1' }, reply: { success: true, sessionsEnded: 2 } },
});

export const terminateSessions = defineRoute({
  owner: 'gateway',
  method: 'POST',
  path: '/api/admin/users/:id/terminate-sessions',
  access: 'admin',
  params: userParams,
  reply: sessionsEnded,
  summary: 'End every session of an account',
  category: 'Users',
  example: { params: { id: 'local:1' }, reply: { success: true, sessionsEnded: 1 } },
});

export const requestLogEntrySchema = z.object({
  id: z.number().int(),
  method: z.string(),
  endpoint: z.string(),
  statusCode: z.string(),
  responseTime: z.string(),
  timestamp: z.string(),
});

export const latestRequests = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/monitoring/requests',
  access: 'admin',
  /** `total` counts the whole log; `data` is its latest page. */
  reply: z.object({ data: z.array(requestLogEntrySchema), total: z.number().int() }),
  summary: 'The latest API requests, and how many the log holds',
  category: 'Monitoring',
  example: { reply: { data: [{ id: 1, method: 'GET', endpoint: '/api/prices', statusCode: '200', responseTime: '4ms', timestamp: '2026-11-23T08:00:00.000Z' }], total: 1 } },
});

export const analyticsOverview = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/analytics/overview',
  access: 'admin',
  reply: z.object({ data: z.object({ totalRequests: z.number().int(), avgResponseTime: z.number(), uniqueEndpoints: z.number().int(), successRate: z.number() }) }),
  summary: 'Totals of the request log',
  category: 'Monitoring',
  example: { reply: { data: { totalRequests: 1200, avgResponseTime: 12, uniqueEndpoints: 9, successRate: 99.5 } } },
});

export const analyticsEndpoints = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/analytics/endpoints',
  access: 'admin',
  reply: z.object({ data: z.array(z.object({ endpoint: z.string(), method: z.string(), count: z.number().int(), avgResponseTime: z.number() })) }),
  summary: 'The most requested endpoints',
  category: 'Monitoring',
  example: { reply: { data: [{ endpoint: '/api/prices', method: 'GET', count: 800, avgResponseTime: 3 }] } },
});

export const analyticsTimeline = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/analytics/timeline',
  access: 'admin',
  reply: z.object({ data: z.array(z.object({ hour: z.string(), requests: z.number().int(), avgResponseTime: z.number() })) }),
  summary: 'Requests per hour over the last 24 hours',
  category: 'Monitoring',
  example: { reply: { data: [{ hour: '2026-11-23T08:00:00.000Z', requests: 50, avgResponseTime: 5 }] } },
});

export const configStatus = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/admin/config-status',
  access: 'admin',
  reply: z.object({ data: z.array(configItemSchema) }),
  summary: "What the whole system has configured, by service, where simulators stand in, and the id of each service's data encryption key (never the key)",
  category: 'System',
  example: {
    reply: {
      data: [
        { name: 'Admin e-mails', category: 'Authentication', configured: true, simulated: false, service: 'gateway' },
        { name: 'Data encryption key (QPay client secret, chat webhook secret)', category: 'Bank payments', configured: true, simulated: false, service: 'payments', dataKey: { id: '3f9c2a71', oldKeys: 0 } },
      ],
    },
  },
});

export const listRuns = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/admin/runs',
  access: 'admin',
  query: runListQuery.extend({ service: z.enum(serviceNames as [ServiceName, ...ServiceName[]]).optional() }),
  reply: z.object({ data: z.array(runSchema), unreachable: z.array(z.string()) }),
  summary: 'The latest background runs of every service (or one), newest first; services that did not answer are named',
  category: 'Background work',
  example: { query: { status: 'failed', limit: 50 }, reply: { data: [], unreachable: [] } },
});

export const listSchedules = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/admin/schedules',
  access: 'admin',
  reply: z.object({ data: z.array(scheduleSchema), unreachable: z.array(z.string()) }),
  summary: 'Every schedule of every service: its expression, last tick and next run',
  category: 'Background work',
  example: { reply: { data: [{ name: 'expiry-check', service: 'notifications', expression: '0 * * * *', runKind: 'expiry-check', lastTickAt: null, lastRunId: null, nextRunAt: '2026-11-26T09:00:00.000Z' }], unreachable: [] } },
});

export const listAlerts = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/admin/alerts',
  access: 'admin',
  query: alertListQuery,
  reply: z.object({ data: z.array(alertSchema), unreachable: z.array(z.string()) }),
  summary: 'The alerts of every service (active: pending and firing, the default; or one status), firing first; services that did not answer are named',
  category: 'Monitoring',
  example: { query: { status: 'active', limit: 100 }, reply: { data: [exampleAlert], unreachable: [] } },
});

export const listAudit = defineRoute({
  owner: 'gateway',
  method: 'GET',
  path: '/api/admin/audit',
  access: 'admin',
  query: auditListQuery,
  reply: z.object({
    data: z.array(auditEntrySchema),
    /** Pass as `before` for the next, older page; null when this page is the last. */
    nextBefore: z.string().nullable(),
    unreachable: z.array(z.string()),
  }),
  summary: 'What admins changed, across every service, newest first: who, when, from where, the request, and each row before and after (secrets masked); filtered by actor, table, action and time',
  category: 'Monitoring',
  example: { query: { limit: 50 }, reply: { data: [exampleAuditEntry], nextBefore: null, unreachable: [] } },
});

export const gatewayRoutes = [
  apiIndex, openApiDocument, systemInfo, currentUser, csrfToken, oidcLogin, oidcCallback, logout, passwordLogin, passwordLogout,
  disableUser, terminateSessions, latestRequests, analyticsOverview, analyticsEndpoints, analyticsTimeline, configStatus, listRuns, listSchedules, listAlerts, listAudit, exportDatabase, exportDatabaseEncrypted, importDatabase, openEncryptedExport,
  // The gateway's own runs (its sweeps), answered by the gateway itself.
  ...Object.values(runRoutesOf('gateway')),
];
