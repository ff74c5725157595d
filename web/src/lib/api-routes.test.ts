import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { apiRoutesFile, apiRoutesSource } from '../../scripts/api-routes';

describe('api-routes.ts', () => {
  it('lists the routes of the contracts as they are now (else: npx tsx web/scripts/api-routes.ts)', () => {
    expect(readFileSync(apiRoutesFile, 'utf8')).toBe(apiRoutesSource());
  });
});
