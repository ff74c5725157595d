/**
 * Writes web/src/lib/api-routes.ts: the path of every route a browser may call (the contracts' in
 * proto, internal ones left out) as one string type, so the app's calls are checked against the
 * contracts when it is type-checked. `npx tsx web/scripts/api-routes.ts` after a route is added or
 * renamed; web/src/lib/api-routes.test.ts fails while the file is behind the contracts.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { allRoutes } from '@bo/proto';

export const apiRoutesFile = fileURLToPath(new URL('../src/lib/api-routes.ts', import.meta.url));

export function apiRoutesSource(): string {
  const paths = [...new Set(allRoutes.filter((route) => route.access !== 'internal').map((route) => route.path))].sort();
  return [
    '// Written by web/scripts/api-routes.ts from the route contracts (proto): do not edit.',
    '/** The path pattern of every route the browser may call; `:name` is one segment. */',
    'export type ApiRoute =',
    ...paths.map((path) => `  | '${path}'`),
    '  ;',
    '',
  ].join('\n').replace('\n  ;\n', ';\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(apiRoutesFile, apiRoutesSource());
