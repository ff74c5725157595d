import { applyActions, dynamicBlockViolations, type AppliedAction } from './dynamic-block';
import type { ManyChatState, Subscriber } from './state';

/** A subscriber "writes" `text`; the driver then calls our webhook the way a Dynamic Block step does. */
export interface DriverSend {
  subscriberId: string;
  text: string;
  /** A named step of the state's `steps`: its URL, headers and body instead of the default ones. */
  step?: string;
  /** Defaults to the step's URL, else the state's `webhookUrl`. */
  url?: string;
  headers?: Record<string, string>;
  /** JSON text with {{variables}}, or "full_subscriber_data"; defaults to the state's template. */
  bodyTemplate?: string;
  /** Defaults to the state's `webhookTimeoutMs` (10 s; 5 s is the other reported figure). */
  timeoutMs?: number;
}

export interface WebhookExchange {
  id: number;
  at: string;
  subscriberId: string;
  text: string;
  request: { url: string; headers: Record<string, string>; body: string };
  status: number | null;
  durationMs: number;
  /** "delivered" only when the reply was 2xx, valid JSON and a valid Dynamic Block v2. */
  outcome: 'delivered' | 'failed';
  failure?: string;
  responseText?: string;
  reply?: unknown;
  violations: string[];
  appliedActions: AppliedAction[];
}

export const FULL_SUBSCRIBER_DATA = 'full_subscriber_data';

let nextExchangeId = 1;

/** Fills a body template: values are JSON-escaped because placeholders sit inside JSON strings. */
export function renderBody(state: ManyChatState, subscriber: Subscriber, template: string): string {
  if (template === FULL_SUBSCRIBER_DATA) return JSON.stringify(state.fullData(subscriber));
  const data = state.fullData(subscriber);
  const variables: Record<string, unknown> = { ...data.custom_fields, ...data, user_id: subscriber.id };
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_match, name: string) => {
    const value = variables[name];
    return value === undefined || value === null ? '' : JSON.stringify(String(value)).slice(1, -1);
  });
}

export async function driveWebhook(state: ManyChatState, send: DriverSend): Promise<WebhookExchange> {
  const subscriber = state.subscribers.get(String(send.subscriberId));
  if (!subscriber) throw new Error(`unknown subscriber ${send.subscriberId}`);
  const step = send.step === undefined ? null : state.options.steps[send.step];
  if (step === undefined) throw new Error(`unknown step ${send.step}: set it in options.steps`);
  const url = send.url ?? step?.url ?? state.options.webhookUrl;
  if (!url) throw new Error('no webhook URL: pass url or set options.webhookUrl');

  const now = new Date(state.now()).toISOString();
  Object.assign(subscriber, { last_input_text: send.text, last_interaction: now, last_seen: now });
  const headers = { 'content-type': 'application/json', ...(step?.headers ?? state.options.webhookHeaders), ...send.headers };
  const body = renderBody(state, subscriber, send.bodyTemplate ?? step?.bodyTemplate ?? state.options.bodyTemplate);
  const timeoutMs = send.timeoutMs ?? state.options.webhookTimeoutMs;

  const exchange: WebhookExchange = {
    id: nextExchangeId++,
    at: now,
    subscriberId: subscriber.id,
    text: send.text,
    request: { url, headers, body },
    status: null,
    durationMs: 0,
    outcome: 'failed',
    violations: [],
    appliedActions: [],
  };
  const started = Date.now();
  try {
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    exchange.status = response.status;
    exchange.responseText = (await response.text()).slice(0, 4000);
    conclude(state, subscriber, exchange, response.ok);
  } catch (error) {
    const name = (error as Error).name;
    exchange.failure = name === 'TimeoutError' || name === 'AbortError' ? `no answer within ${timeoutMs} ms` : `connection failed: ${(error as Error).message}`;
  }
  exchange.durationMs = Date.now() - started;
  state.exchanges.unshift(exchange);
  if (state.exchanges.length > 200) state.exchanges.length = 200;
  return exchange;
}

/** Judges the answer as ManyChat would: only a 2xx, valid-JSON, valid-v2 reply reaches the person. */
function conclude(state: ManyChatState, subscriber: Subscriber, exchange: WebhookExchange, ok: boolean): void {
  if (!ok) {
    exchange.failure = `HTTP ${exchange.status}`;
    return;
  }
  try {
    exchange.reply = JSON.parse(exchange.responseText ?? '');
  } catch {
    exchange.failure = 'reply is not valid JSON';
    return;
  }
  exchange.violations = dynamicBlockViolations(exchange.reply, { state, channel: subscriber.channel, viaPublicApi: false });
  if (exchange.violations.length > 0) {
    exchange.failure = `reply breaks Dynamic Block v2 rules (${exchange.violations.length})`;
    return;
  }
  const content = (exchange.reply as { content: { actions?: unknown } }).content;
  state.deliver({ subscriberId: subscriber.id, source: 'webhook', content, messageTag: null });
  exchange.appliedActions = applyActions(state, subscriber, content.actions);
  exchange.outcome = 'delivered';
}
