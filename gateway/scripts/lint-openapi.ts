/**
 * Lints the OpenAPI document the gateway serves (`GET /api/openapi.json`) with Redocly's
 * `recommended` ruleset: `npx tsx gateway/scripts/lint-openapi.ts` (what `make lint-openapi`
 * calls, and `make lint` with it). Prints every problem and exits 1 on any error or warning.
 *
 * Offline and in-process: @redocly/openapi-core (the library under Redocly's CLI, which has no
 * telemetry of its own), its configuration built here rather than read from a redocly.yaml, and a
 * resolver that refuses to fetch anything: the document has only local `#/components/...` refs.
 */
import { BaseResolver, createConfig, escapePointerFragment, getLineColLocation, lintDocument, makeDocumentFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { isMainModule } from '@bo/platform/scripts/service-paths';
import { buildGatewayOpenApiDocument } from '../src/domain/openapi';

/** The name the document is linted under; locations in the report are lines of its JSON text. */
export const lintedDocumentName = 'openapi.json';

/** Redocly's recommended ruleset, every rule on for the whole document (exceptions: `exemptionsFor`). */
export const openApiLintConfig = { extends: ['recommended'] };

interface Operation {
  responses?: Record<string, unknown>;
  parameters?: Array<{ name: string; in: string; schema?: { pattern?: string } }>;
}
interface OpenApiDocument {
  paths?: Record<string, Record<string, Operation>>;
}

/** A rule left off at one place, for a reason that holds there; `applies` says which problem it covers. */
export interface Exemption {
  rule: string;
  where: string;
  reason: string;
  applies(problem: NormalizedProblem): boolean;
}

/**
 * Paths Redocly's no-ambiguous-paths matches (a literal segment of one where the other has a
 * parameter) that are not ambiguous: the one URL both templates fit has, in the parameter's place,
 * a word that parameter's pattern refuses, so it can only mean the other route (which is also the
 * route Fastify picks: a static segment wins over a parameter). `exemptionsFor` checks that in
 * the document itself, so loosening one of these patterns makes the lint fail again.
 */
export const unambiguousPathPairs: ReadonlyArray<readonly [string, string]> = [
  // `user` is no invoice id (INV-…).
  ['/api/qpay/invoices/user/{userId}', '/api/qpay/invoices/{invoiceId}/check'],
  // Neither `generate-qr` nor `customer-id` is a key id (digits).
  ['/api/streaming-keys/{id}/customer-id', '/api/streaming-keys/generate-qr/{id}'],
  // `game` is no product id (digits): /api/scraper/products/game/publish deletes the game "publish".
  ['/api/scraper/products/game/{gameName}', '/api/scraper/products/{id}/publish'],
  ['/api/scraper/products/game/{gameName}', '/api/scraper/products/{id}/unpublish'],
  ['/api/scraper/products/game/{gameName}', '/api/scraper/products/{id}/toggle-status'],
  ['/api/scraper/products/game/{gameName}', '/api/scraper/products/{id}/rescrape'],
];

const parameterName = (segment: string) => /^\{(.+)\}$/.exec(segment)?.[1];

/** Whether, at some segment, one template's literal word is refused by the other's path parameter pattern. */
function overlapRefused(document: OpenApiDocument, a: string, b: string): boolean {
  const pattern = (path: string, name: string) =>
    Object.values(document.paths?.[path] ?? {})
      .flatMap((operation) => operation.parameters ?? [])
      .find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema?.pattern;
  const refuses = (path: string, name: string, word: string) => {
    const source = pattern(path, name);
    return source !== undefined && !new RegExp(source, 'u').test(word);
  };
  const [as, bs] = [a.split('/'), b.split('/')];
  if (as.length !== bs.length) return false;
  return as.some((segment, i) => {
    const [inA, inB] = [parameterName(segment), parameterName(bs[i])];
    if (inA && !inB) return refuses(a, inA, bs[i]);
    if (inB && !inA) return refuses(b, inB, segment);
    return false;
  });
}

/**
 * Where a recommended rule does not apply, one operation or one pair of paths at a time:
 * - operation-2xx-response, on every operation whose only success is a redirect (a contract's
 *   `replyKind: 'redirect'`: the sign-in round trip, logout, the chat's Buy link and the renewal
 *   link). They answer 302 and never a 2xx, which the document says as it is;
 * - no-ambiguous-paths, on the pairs of `unambiguousPathPairs`, while their patterns keep them apart.
 */
export function exemptionsFor(document: OpenApiDocument): Exemption[] {
  const exemptions: Exemption[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      const codes = Object.keys(operation.responses ?? {});
      if (!codes.some((code) => code.startsWith('3')) || codes.some((code) => code.startsWith('2'))) continue;
      const pointer = `#/paths/${escapePointerFragment(path)}/${method}/responses`;
      exemptions.push({
        rule: 'operation-2xx-response',
        where: `${method.toUpperCase()} ${path}`,
        reason: 'a redirect: its success is the 302, it has no 2xx',
        applies: (problem) => problem.ruleId === 'operation-2xx-response' && problem.location[0]?.pointer === pointer,
      });
    }
  }
  for (const [a, b] of unambiguousPathPairs) {
    if (!overlapRefused(document, a, b)) continue;
    exemptions.push({
      rule: 'no-ambiguous-paths',
      where: `${a} and ${b}`,
      reason: "the one URL both fit has a word the other's path parameter pattern refuses",
      applies: (problem) => problem.ruleId === 'no-ambiguous-paths' && problem.message.includes(`\`${a}\``) && problem.message.includes(`\`${b}\``),
    });
  }
  return exemptions;
}

export interface OpenApiLint {
  /** What fails the lint: every error and warning no exemption covers. */
  problems: NormalizedProblem[];
  /** The problems an exemption covers, with it. */
  exempted: Array<{ problem: NormalizedProblem; exemption: Exemption }>;
  /** Exemptions that covered nothing: stale, they fail the lint too. */
  unused: Exemption[];
}

/** A resolver for the local refs only: any http(s) ref fails instead of reaching the network. */
const offlineResolver = () =>
  new BaseResolver({
    http: {
      headers: [],
      customFetch: (url: string) => {
        throw new Error(`the OpenAPI lint runs offline, it does not fetch ${url}`);
      },
    },
  });

/** Lints `document` with the recommended ruleset and sorts the problems by `exemptionsFor(document)`. */
export async function lintOpenApi(document: unknown): Promise<OpenApiLint> {
  const resolver = offlineResolver();
  const config = await createConfig(openApiLintConfig, { externalRefResolver: resolver });
  const source = makeDocumentFromString(JSON.stringify(document, null, 2), lintedDocumentName);
  const all = await lintDocument({ document: source, config, externalRefResolver: resolver });
  const exemptions = exemptionsFor(document as OpenApiDocument);
  const result: OpenApiLint = { problems: [], exempted: [], unused: [] };
  for (const problem of all) {
    const exemption = exemptions.find((candidate) => candidate.applies(problem));
    if (exemption) result.exempted.push({ problem, exemption });
    else result.problems.push(problem);
  }
  result.unused = exemptions.filter((exemption) => !result.exempted.some((done) => done.exemption === exemption));
  return result;
}

/** One line a problem: severity, rule, where (JSON pointer and line:column), message. */
export function formatProblem(problem: NormalizedProblem): string {
  const where = problem.location[0];
  const line = where ? getLineColLocation(where).start : undefined;
  const position = where && line ? `${where.pointer ?? '#/'} (${lintedDocumentName}:${line.line}:${line.col})` : '(no location)';
  return `${problem.severity.padEnd(5)} ${problem.ruleId}  ${position}  ${problem.message}`;
}

async function main(): Promise<void> {
  const { problems, exempted, unused } = await lintOpenApi(buildGatewayOpenApiDocument());
  for (const problem of problems) console.log(formatProblem(problem));
  for (const { exemption } of exempted) console.log(`off   ${exemption.rule}  ${exemption.where}: ${exemption.reason}`);
  for (const exemption of unused) console.log(`stale exemption: ${exemption.rule}  ${exemption.where} covers no problem any more; remove it`);
  const count = (severity: string) => problems.filter((problem) => problem.severity === severity).length;
  const byRule = new Map<string, number>();
  for (const problem of problems) byRule.set(problem.ruleId, (byRule.get(problem.ruleId) ?? 0) + 1);
  console.log(`OpenAPI lint (Redocly recommended): ${count('error')} errors, ${count('warn')} warnings, ${exempted.length} exempted (off at one place each, above)`);
  for (const [rule, n] of [...byRule].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(4)} ${rule}`);
  if (problems.length > 0 || unused.length > 0) process.exit(1);
}

if (isMainModule(import.meta.url)) {
  main().catch((error: Error) => {
    console.error(error.stack ?? error.message);
    process.exit(1);
  });
}
