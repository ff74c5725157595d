import { z } from 'zod';

/**
 * A fault rule applies to requests of the imitated API (never to /__sim/ paths).
 * `times` bounds how often it fires, so "fail twice, then answer" can beat a client's retries.
 */
export const faultRuleSchema = z.object({
  method: z.string().toUpperCase().optional(),
  /** Applies when the request path (without query) starts with this prefix; all paths when absent. */
  pathPrefix: z.string().optional(),
  /** Applies only when the query string has each of these parameters with this value (e.g. `{ page: '3' }`). */
  query: z.record(z.string(), z.string()).optional(),
  /**
   * 'hold': the answer waits until the test releases the rule (POST /__sim/faults/release, its
   * `release`, a DELETE of the faults or a reset), then the real handler runs. Unlike 'slow', it
   * lets a test show that a client did not wait for an answer (it went on while the answer was
   * still held), whatever the machine's speed. GET /__sim/held lists the requests held now.
   */
  kind: z.enum(['status', 'slow', 'drop', 'html', 'hold']),
  status: z.number().int().min(100).max(599).default(500),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).default({}),
  /** For 'slow': the answer is held this long, then the real handler runs. */
  delayMs: z.number().int().min(0).max(120_000).default(0),
  times: z.number().int().positive().optional(),
});
export type FaultRule = z.infer<typeof faultRuleSchema>;

/** A request a 'hold' rule keeps waiting. */
export interface HeldRequest {
  /** The rule that holds it. */
  rule: number;
  method: string;
  url: string;
  since: string;
  /** The client closed the connection while it was held (it gave up waiting). */
  clientGone: boolean;
}

export class FaultBook {
  private rules: (FaultRule & { id: number; fired: number })[] = [];
  private nextId = 1;
  private holding: { request: HeldRequest; release: () => void }[] = [];

  add(input: unknown): FaultRule & { id: number } {
    const rule = { ...faultRuleSchema.parse(input), id: this.nextId++, fired: 0 };
    this.rules.push(rule);
    return rule;
  }

  list() {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** Removes every rule and lets every held request go on. */
  clear(): void {
    this.rules = [];
    this.release();
  }

  /** The first live rule matching this request; consumes one of its `times`. */
  take(method: string, path: string, query: URLSearchParams = new URLSearchParams()): FaultRule | undefined {
    const rule = this.rules.find(
      (r) =>
        (!r.method || r.method === method) &&
        (!r.pathPrefix || path.startsWith(r.pathPrefix)) &&
        Object.entries(r.query ?? {}).every(([name, value]) => query.get(name) === value),
    );
    if (!rule) return undefined;
    rule.fired += 1;
    if (rule.times !== undefined && rule.fired >= rule.times) this.rules = this.rules.filter((r) => r !== rule);
    return rule;
  }

  /** Keeps a request of a 'hold' rule waiting: `released` settles when the rule is released. */
  hold(rule: FaultRule & { id?: number }, request: { method: string; url: string }): { released: Promise<void>; held: HeldRequest } {
    const held: HeldRequest = { rule: rule.id ?? 0, method: request.method, url: request.url, since: new Date().toISOString(), clientGone: false };
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    this.holding.push({ request: held, release });
    return { released, held };
  }

  /** The requests held now, oldest first. */
  held(): HeldRequest[] {
    return this.holding.map(({ request }) => ({ ...request }));
  }

  /**
   * Lets the requests held by rule `id` (every 'hold' rule's when absent) go on to the real
   * handler, and removes the rule so that later requests are not held; returns how many went on.
   */
  release(id?: number): number {
    const going = this.holding.filter(({ request }) => id === undefined || request.rule === id);
    this.holding = this.holding.filter((entry) => !going.includes(entry));
    this.rules = this.rules.filter((rule) => rule.kind !== 'hold' || (id !== undefined && rule.id !== id));
    for (const { release } of going) release();
    return going.length;
  }
}
