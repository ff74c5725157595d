import { describe, expect, it } from 'vitest';
import { allRoutes, pathParamNames } from '@bo/proto';
import { buildGatewayOpenApiDocument, buildOpenApiDocument, operationIdOf } from '../../src/domain/openapi';
import { formatProblem, lintOpenApi, unambiguousPathPairs } from '../../scripts/lint-openapi';

type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  'x-access': string;
  security: Record<string, string[]>[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
  parameters?: { name: string; in: string; schema?: { pattern?: string; type?: unknown }; example?: unknown }[];
};

describe('the OpenAPI document built from the contracts', () => {
  const document = buildGatewayOpenApiDocument() as unknown as { openapi: string; servers: { url: string }[]; paths: Record<string, Record<string, Operation>> };
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

  it('says who may call each operation in x-access, as its contract does: public, customer or admin', () => {
    const reachable = allRoutes.filter((route) => route.access !== 'internal');
    const wrong = reachable.filter((route) => operation(route.path.replace(/:(\w+)/g, '{$1}'), route.method.toLowerCase())?.['x-access'] !== route.access);
    expect(wrong.map((route) => `${route.method} ${route.path}`)).toEqual([]);
    const accesses = Object.values(document.paths).flatMap((methods) => Object.values(methods).map((op) => op['x-access']));
    expect(new Set(accesses)).toEqual(new Set(['public', 'customer', 'admin']));
    // What x-access says agrees with the security the operation declares: only public ones need no session.
    for (const op of Object.values(document.paths).flatMap((methods) => Object.values(methods))) {
      expect(op.security, op.operationId).toEqual(op['x-access'] === 'public' ? [] : [{ session: [] }]);
    }
    expect(operation('/api/customer/keys', 'get')!['x-access']).toBe('customer');
    expect(operation('/api/monitoring/requests', 'get')!['x-access']).toBe('admin');
    expect(operation('/api/prices', 'get')!['x-access']).toBe('public');
  });

  it("gives every path parameter its contract's example, written as the text it travels as, and query parameters theirs", () => {
    const missing: string[] = [];
    for (const route of allRoutes.filter((candidate) => candidate.access !== 'internal')) {
      const op = operation(route.path.replace(/:(\w+)/g, '{$1}'), route.method.toLowerCase())!;
      const examples = (route.example.params ?? {}) as Record<string, unknown>;
      for (const name of pathParamNames(route.path)) {
        const parameter = op.parameters?.find((candidate) => candidate.in === 'path' && candidate.name === name);
        const example = examples[name];
        const expected = typeof example === 'number' && parameter?.schema?.type === 'string' ? String(example) : example;
        if (parameter?.example === undefined || parameter.example !== expected) missing.push(`${route.method} ${route.path} ${name}`);
      }
    }
    expect(missing).toEqual([]);
    expect(operation('/api/prices/{product}', 'post')!.parameters).toContainEqual(expect.objectContaining({ name: 'product', in: 'path', example: 'Netflix 1 month' }));
    // `:id` is a pattern-checked string in the document: the contract's 41 is the text '41'.
    expect(operation('/api/streaming-keys/{id}', 'delete')!.parameters).toContainEqual(expect.objectContaining({ name: 'id', in: 'path', example: '41', schema: expect.objectContaining({ type: 'string' }) }));
    expect(operation('/api/streaming-keys/emails-with-slots', 'get')!.parameters).toContainEqual(expect.objectContaining({ name: 'service', in: 'query', example: 'NFX' }));
    expect(operation('/api/qpay/invoices/recent', 'get')!.parameters).toContainEqual(expect.objectContaining({ name: 'limit', in: 'query', example: 10 }));
  });

  it('names every operation with an operationId made from its method and path, unique in the document', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ where: `${method} ${path}`, id: op.operationId })));
    expect(operations.filter((op) => !/^[a-z]+[A-Za-z0-9]*$/.test(op.id ?? ''))).toEqual([]);
    const ids = operations.map((op) => op.id);
    expect(operations.filter((op, i) => ids.indexOf(op.id) !== i)).toEqual([]);
    // Stable: what clients generated from the document call these operations.
    expect(operation('/api/prices', 'get')!.operationId).toBe('getPrices');
    expect(operation('/api/prices/{product}', 'post')!.operationId).toBe('postPricesByProduct');
    expect(operation('/api/streaming-keys/generate-qr/{id}', 'post')!.operationId).toBe('postStreamingKeysGenerateQrById');
    expect(operation('/api/admin/runs/pricing.{runId}/retry', 'post')!.operationId).toBe('postAdminRunsPricingByRunIdRetry');
    expect(operationIdOf({ method: 'DELETE', path: '/api/system-prompts/email_parser/:promptId' })).toBe('deleteSystemPromptsEmailParserByPromptId');
  });

  it('refuses two routes that would share an operationId', () => {
    const twin = (path: string) => ({ ...allRoutes.find((route) => route.path === '/api/prices' && route.method === 'GET')!, path });
    expect(() => buildOpenApiDocument([twin('/api/foo-bar'), twin('/api/foo/bar')], { title: 't', version: '1' })).toThrow(/GET \/api\/foo\/bar and GET \/api\/foo-bar both get the operationId getFooBar/);
  });

  it('says where it is served, and describes redirects and event streams as they answer', () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: '/' })]);
    const redirects = allRoutes.filter((route) => route.replyKind === 'redirect' && route.access !== 'internal');
    expect(redirects.length).toBeGreaterThan(0);
    for (const route of redirects) {
      const op = operation(route.path.replace(/:(\w+)/g, '{$1}'), route.method.toLowerCase())!;
      expect(Object.keys(op.responses).filter((code) => /^[23]/.test(code))).toEqual(['302']);
    }
    const events = operation('/api/scraper/jobs/{id}/progress', 'get')!;
    expect(Object.keys(events.responses['200'].content!)).toEqual(['text/event-stream']);
  });

  it("passes Redocly's recommended lint: no error, no warning, each rule left off only where it cannot apply", { timeout: 30_000 }, async () => {
    const { problems, exempted, unused } = await lintOpenApi(document);
    expect(problems.map(formatProblem)).toEqual([]);
    expect(unused.map((exemption) => `${exemption.rule} ${exemption.where}`)).toEqual([]);
    // Off at these places only: the redirect routes (a 302, no 2xx) and the listed path pairs.
    const redirects = allRoutes.filter((route) => route.replyKind === 'redirect' && route.access !== 'internal');
    const offAt = (rule: string) => exempted.filter(({ exemption }) => exemption.rule === rule).map(({ exemption }) => exemption.where);
    expect(offAt('operation-2xx-response').sort()).toEqual(redirects.map((route) => `GET ${route.path.replace(/:(\w+)/g, '{$1}')}`).sort());
    expect(offAt('no-ambiguous-paths').sort()).toEqual(unambiguousPathPairs.map(([a, b]) => `${a} and ${b}`).sort());
    expect(new Set(exempted.map(({ exemption }) => exemption.rule))).toEqual(new Set(['operation-2xx-response', 'no-ambiguous-paths']));
  });

  it('keeps an ambiguous-path exemption only while the parameter pattern keeps the two paths apart', { timeout: 30_000 }, async () => {
    const loosened = structuredClone(document);
    for (const op of Object.values(loosened.paths['/api/qpay/invoices/{invoiceId}/check'])) {
      for (const parameter of op.parameters ?? []) delete parameter.schema?.pattern;
    }
    const { problems } = await lintOpenApi(loosened);
    expect(problems.map((problem) => problem.ruleId)).toEqual(['no-ambiguous-paths']);
  });
});
