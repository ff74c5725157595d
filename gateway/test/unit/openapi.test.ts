import { describe, expect, it } from 'vitest';
import { allRoutes } from '@bo/proto';
import { buildOpenApiDocument } from '../../src/domain/openapi';

type Operation = { summary: string; tags: string[]; 'x-access': string; requestBody?: { content: Record<string, { example?: unknown }> }; responses: Record<string, { content?: Record<string, { example?: unknown }> }>; parameters?: { name: string; in: string }[] };

describe('the OpenAPI document built from the contracts', () => {
  const document = buildOpenApiDocument(allRoutes, { title: 'Back-office API', version: '1' }) as unknown as { openapi: string; paths: Record<string, Record<string, Operation>> };
  const operation = (path: string, method: string) => document.paths[path]?.[method];

  it('is OpenAPI 3.1 with one operation per reachable contract, and no internal route', () => {
    expect(document.openapi).toBe('3.1.0');
    const reachable = allRoutes.filter((route) => route.access !== 'internal');
    const operations = Object.values(document.paths).flatMap((methods) => Object.keys(methods));
    expect(operations).toHaveLength(reachable.length);
    expect(Object.keys(document.paths).some((path) => path.startsWith('/internal'))).toBe(false);
  });

  it('carries path parameters, summary, category, access and the examples of request and reply', () => {
    const update = operation('/api/prices/{product}', 'post')!;
    expect(update).toMatchObject({ summary: expect.stringContaining('product'), tags: ['Prices'], 'x-access': 'admin' });
    expect(update.parameters).toContainEqual(expect.objectContaining({ name: 'product', in: 'path' }));
    expect(update.requestBody!.content['application/json'].example).toEqual({ salePrice: '22000' });
    expect(update.responses['200'].content!['application/json'].example).toMatchObject({ success: true });
    expect(operation('/api/prices', 'get')!.parameters).toContainEqual(expect.objectContaining({ name: 'format', in: 'query' }));
  });
});
