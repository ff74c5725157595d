import type { WebhookExchange } from './driver';
import { seedData, type SeedData } from './seed';

export type Channel = 'messenger' | 'instagram' | 'whatsapp' | 'telegram';
export type FieldType = 'text' | 'number' | 'date' | 'datetime' | 'boolean';
export type FieldValue = string | number | boolean | null;

export interface Page {
  id: string;
  name: string;
  category: string;
  avatar_link: string;
  username: string;
  about: string;
  description: string;
  is_pro: boolean;
  timezone: string;
}
export interface Flow {
  ns: string;
  name: string;
  folder_id: number;
}
export interface Tag {
  id: number;
  name: string;
}
export interface CustomField {
  id: number;
  name: string;
  type: FieldType;
  description: string;
}
export interface Subscriber {
  id: string;
  channel: Channel;
  status: 'active' | 'inactive';
  first_name: string;
  last_name: string;
  gender: string;
  profile_pic: string;
  locale: string;
  language: string;
  timezone: string;
  last_input_text: string;
  subscribed: string;
  /** ISO time; drives the 24-hour window. */
  last_interaction: string;
  last_seen: string;
  phone: string | null;
  email: string | null;
  ig_username: string | null;
  /** Checkbox-plugin reference that sendContentByUserRef addresses. */
  user_ref?: string;
  /** field id → value */
  fields: Record<number, FieldValue>;
  tagIds: number[];
}

/** A message the fake "delivered" to a person, by whatever route it came. */
export interface DeliveredMessage {
  id: number;
  at: string;
  subscriberId: string | null;
  userRef?: string;
  source: 'sendContent' | 'sendFlow' | 'sendContentByUserRef' | 'sendTemplate' | 'webhook';
  /** A template's content is `{ template_name, variables }`. */
  content: unknown;
  messageTag: string | null;
  flowNs?: string;
  /** The utility template it went out through (sendTemplate). */
  templateName?: string;
}

/**
 * A Messenger utility template Meta approved for the page (external-apis.md §2, "Changed in
 * 2026"). `variables`: the placeholders its body names, each of which a send must fill; absent
 * when a test does not care.
 */
export interface UtilityTemplate {
  name: string;
  variables?: string[];
}

/**
 * Behaviour switches. Several cover facts the reference marks unverified, so a test can pick
 * either variant of the real service.
 */
export interface ManyChatOptions {
  pageId: string;
  apiSecret: string;
  /** Error replies: HTTP 400 (documented) or HTTP 200 with status:"error" (one integrator's report). */
  errorHttpStatus: 400 | 200;
  /** Whether `id` in subscriber responses is a string or a number. */
  subscriberIdAs: 'string' | 'number';
  /** Requests per second per endpoint path (e.g. "/fb/sending/sendContent"). */
  rateLimits: Record<string, number>;
  /** What an over-limit request gets (undocumented upstream). */
  rateLimitAnswer: { status: number; body: unknown };
  sendFlowPerSubscriberPerHour: number;
  /** Whether sendFlow is refused outside the 24 h window (depends on the flow's tags upstream). */
  sendFlowNeedsWindow: boolean;
  /** HUMAN_AGENT widens the window to this many days; 0 makes it a plain allowed tag. */
  humanAgentWindowDays: number;
  /** Messenger's buttons-per-message limit; null switches the check off. */
  maxButtonsPerMessage: number | null;
  /** Where the driver posts when a send names no URL and no step. */
  webhookUrl: string | null;
  webhookHeaders: Record<string, string>;
  bodyTemplate: string;
  webhookTimeoutMs: number;
  /** More External Request steps of the bot by name (a payment step beside the main reply), each with its own URL, headers and body. */
  steps: Record<string, WebhookStep>;
}

export interface WebhookStep {
  url: string;
  headers: Record<string, string>;
  bodyTemplate: string;
}

export const defaultRateLimits: Record<string, number> = {
  '/fb/page/getInfo': 100,
  '/fb/page/getFlows': 10,
  '/fb/page/getTags': 100,
  '/fb/page/getCustomFields': 100,
  '/fb/subscriber/getInfo': 10,
  '/fb/subscriber/findByCustomField': 10,
  '/fb/subscriber/findBySystemField': 50,
  '/fb/subscriber/findByName': 10,
  '/fb/subscriber/setCustomField': 10,
  '/fb/subscriber/setCustomFieldByName': 10,
  '/fb/subscriber/setCustomFields': 10,
  '/fb/subscriber/addTag': 10,
  '/fb/subscriber/addTagByName': 10,
  '/fb/subscriber/removeTag': 10,
  '/fb/subscriber/removeTagByName': 10,
  '/fb/sending/sendContent': 25,
  '/fb/sending/sendTemplate': 25,
  '/fb/sending/sendFlow': 20,
  '/fb/sending/sendContentByUserRef': 25,
};

export const defaultBodyTemplate = '{"user_id":"{{user_id}}","text":"{{last_input_text}}","first_name":"{{first_name}}"}';

export function defaultOptions(): ManyChatOptions {
  return {
    pageId: '1000001',
    apiSecret: 'sim-manychat-secret',
    errorHttpStatus: 400,
    subscriberIdAs: 'string',
    rateLimits: { ...defaultRateLimits },
    rateLimitAnswer: { status: 429, body: { status: 'error', message: 'Too Many Requests', details: {} } },
    sendFlowPerSubscriberPerHour: 100,
    sendFlowNeedsWindow: false,
    humanAgentWindowDays: 7,
    maxButtonsPerMessage: 3,
    webhookUrl: null,
    webhookHeaders: {},
    bodyTemplate: defaultBodyTemplate,
    webhookTimeoutMs: 10_000,
    steps: {},
  };
}

export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** Everything the fake ManyChat account holds; tests and the launcher seed and read it directly. */
export class ManyChatState {
  options: ManyChatOptions;
  page!: Page;
  flows: Flow[] = [];
  folders: { id: number; name: string }[] = [];
  tags: Tag[] = [];
  fields: CustomField[] = [];
  subscribers = new Map<string, Subscriber>();
  messages: DeliveredMessage[] = [];
  /** Approved utility templates by name. */
  templates = new Map<string, UtilityTemplate>();
  /** Driver exchanges, newest first (see driver.ts). */
  exchanges: WebhookExchange[] = [];
  /** subscriber id → times of accepted sendFlow calls, for the hourly cap */
  flowSends = new Map<string, number[]>();
  private nextMessageId = 1;

  /** Without a given seed, the default one is rebuilt on each reset so its times stay relative to now. */
  constructor(
    private readonly initialOptions: Partial<ManyChatOptions> = {},
    private readonly initialSeed?: SeedData,
    readonly now: () => number = Date.now,
  ) {
    this.options = { ...defaultOptions(), ...initialOptions };
    this.seed(initialSeed ?? seedData());
  }

  get apiKey(): string {
    return `${this.options.pageId}:${this.options.apiSecret}`;
  }

  seed(data: SeedData): void {
    this.page = { ...data.page, id: this.options.pageId };
    this.flows = data.flows.map((f) => ({ ...f }));
    this.folders = data.folders.map((f) => ({ ...f }));
    this.tags = data.tags.map((t) => ({ ...t }));
    this.fields = data.fields.map((f) => ({ ...f }));
    this.subscribers = new Map(data.subscribers.map((s) => [s.id, structuredClone(s)]));
    this.templates = new Map((data.templates ?? []).map((t) => [t.name, structuredClone(t)]));
    this.messages = [];
    this.exchanges = [];
    this.flowSends.clear();
  }

  reset(): void {
    this.options = { ...defaultOptions(), ...this.initialOptions };
    this.seed(this.initialSeed ?? seedData());
  }

  /** Adds or replaces a subscriber; unspecified properties get neutral defaults. */
  upsertSubscriber(input: Partial<Subscriber> & { id: string }): Subscriber {
    const now = new Date(this.now()).toISOString();
    const subscriber: Subscriber = {
      channel: 'messenger',
      status: 'active',
      first_name: '',
      last_name: '',
      gender: '',
      profile_pic: '',
      locale: 'en_US',
      language: 'English',
      timezone: 'UTC+08',
      last_input_text: '',
      subscribed: now,
      last_interaction: now,
      last_seen: now,
      phone: null,
      email: null,
      ig_username: null,
      fields: {},
      tagIds: [],
      ...this.subscribers.get(input.id),
      ...input,
    };
    this.subscribers.set(subscriber.id, subscriber);
    return subscriber;
  }

  withinWindow(subscriber: Subscriber, windowMs = WINDOW_MS): boolean {
    return this.now() - Date.parse(subscriber.last_interaction) <= windowMs;
  }

  deliver(message: Omit<DeliveredMessage, 'id' | 'at'>): DeliveredMessage {
    const delivered = { id: this.nextMessageId++, at: new Date(this.now()).toISOString(), ...message };
    this.messages.unshift(delivered);
    return delivered;
  }

  fieldByName(name: string): CustomField | undefined {
    return this.fields.find((f) => f.name === name);
  }

  tagByName(name: string): Tag | undefined {
    return this.tags.find((t) => t.name === name);
  }

  /** Stores a typed custom-field value; returns why it was refused, if it was. */
  setFieldValue(subscriber: Subscriber, field: CustomField, value: unknown): string | null {
    const problem = fieldValueProblem(field, value);
    if (problem) return problem;
    subscriber.fields[field.id] = value as FieldValue;
    return null;
  }

  /** The subscriber as the public API shows it. */
  view(subscriber: Subscriber) {
    const { fields, tagIds, channel: _channel, user_ref: _userRef, ...rest } = subscriber;
    return {
      ...rest,
      id: this.options.subscriberIdAs === 'number' ? Number(subscriber.id) : subscriber.id,
      page_id: this.options.pageId,
      name: `${subscriber.first_name} ${subscriber.last_name}`.trim(),
      live_chat_url: `https://manychat.com/fb${this.options.pageId}/chat/${subscriber.id}`,
      optin_phone: subscriber.phone !== null,
      optin_email: subscriber.email !== null,
      whatsapp_phone: subscriber.channel === 'whatsapp' ? subscriber.phone : null,
      custom_fields: this.fields.map((f) => ({ ...f, value: fields[f.id] ?? null })),
      tags: this.tags.filter((t) => tagIds.includes(t.id)),
    };
  }

  /** "Full Subscriber Data" as a Dynamic Block request carries it: custom_fields by name. */
  fullData(subscriber: Subscriber) {
    const { custom_fields, tags: _tags, ...rest } = this.view(subscriber);
    return {
      ...rest,
      key: `user:${subscriber.id}`,
      last_growth_tool: null,
      custom_fields: Object.fromEntries(custom_fields.map((f) => [f.name, f.value])),
    };
  }
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** Value types by field type, as the Dynamic Block and API docs give them; null clears. */
export function fieldValueProblem(field: CustomField, value: unknown): string | null {
  if (value === null) return null;
  const ok =
    (field.type === 'text' && typeof value === 'string') ||
    (field.type === 'number' && typeof value === 'number' && Number.isFinite(value)) ||
    (field.type === 'boolean' && typeof value === 'boolean') ||
    (field.type === 'date' && typeof value === 'string' && isoDate.test(value)) ||
    (field.type === 'datetime' && typeof value === 'string' && !isoDate.test(value) && !Number.isNaN(Date.parse(value)));
  return ok ? null : `Value ${JSON.stringify(value)} does not fit the ${field.type} field "${field.name}"`;
}
