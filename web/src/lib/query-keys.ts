/**
 * One key factory per resource. A key joined with slashes is the GET path (see pathOfKey), so a
 * resource's `all` key is a prefix of its other keys and invalidates them together.
 */
export const queryKeys = {
  serverInfo: { all: ['/api'] },
  authUser: { all: ['/api/auth/user'] },
  health: { all: ['/health'] },
  prices: {
    all: ['/api/prices'],
    summary: ['/api/prices'],
    rows: ['/api/prices', '?format=array'],
  },
  cacheStatus: { all: ['/api/cache/status'] },
  requests: { all: ['/api/monitoring/requests'] },
  analytics: {
    all: ['/api/analytics'],
    overview: ['/api/analytics', 'overview'],
    endpoints: ['/api/analytics', 'endpoints'],
    timeline: ['/api/analytics', 'timeline'],
  },
  configStatus: { all: ['/api/admin/config-status'] },
} as const;

/** Polling intervals of document 1, section 9. */
export const pollEvery = {
  health: 30_000,
  prices: 60_000,
  requests: 10_000,
  cacheStatus: 5_000,
  analytics: 30_000,
} as const;
