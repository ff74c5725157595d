import { z } from 'zod';

/**
 * A fault rule applies to requests of the imitated API (never to /__sim/ paths).
 * `times` bounds how often it fires, so "fail twice, then answer" can beat a client's retries.
 */
export const faultRuleSchema = z.object({
  method: z.string().toUpperCase().optional(),
  /** Applies when the request path (without query) starts with this prefix; all paths when absent. */
  pathPrefix: z.string().optional(),
  kind: z.enum(['status', 'slow', 'drop', 'html']),
  status: z.number().int().min(100).max(599).default(500),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).default({}),
  /** For 'slow': the answer is held this long, then the real handler runs. */
  delayMs: z.number().int().min(0).max(120_000).default(0),
  times: z.number().int().positive().optional(),
});
export type FaultRule = z.infer<typeof faultRuleSchema>;

export class FaultBook {
  private rules: (FaultRule & { id: number; fired: number })[] = [];
  private nextId = 1;

  add(input: unknown): FaultRule & { id: number } {
    const rule = { ...faultRuleSchema.parse(input), id: this.nextId++, fired: 0 };
    this.rules.push(rule);
    return rule;
  }

  list() {
    return this.rules.map((rule) => ({ ...rule }));
  }

  clear(): void {
    this.rules = [];
  }

  /** The first live rule matching this request; consumes one of its `times`. */
  take(method: string, path: string): FaultRule | undefined {
    const rule = this.rules.find(
      (r) => (!r.method || r.method === method) && (!r.pathPrefix || path.startsWith(r.pathPrefix)),
    );
    if (!rule) return undefined;
    rule.fired += 1;
    if (rule.times !== undefined && rule.fired >= rule.times) this.rules = this.rules.filter((r) => r !== rule);
    return rule;
  }
}
