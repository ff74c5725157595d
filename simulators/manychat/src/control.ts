import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { driveWebhook } from './driver';
import type { SeedData } from './seed';
import type { ManyChatState, Subscriber } from './state';

const optionsSchema = z
  .object({
    pageId: z.string().min(1),
    apiSecret: z.string().min(1),
    errorHttpStatus: z.union([z.literal(400), z.literal(200)]),
    subscriberIdAs: z.enum(['string', 'number']),
    rateLimits: z.record(z.string(), z.number().int().positive()),
    rateLimitAnswer: z.object({ status: z.number().int().min(200).max(599), body: z.unknown() }),
    sendFlowPerSubscriberPerHour: z.number().int().positive(),
    sendFlowNeedsWindow: z.boolean(),
    humanAgentWindowDays: z.number().int().min(0),
    maxButtonsPerMessage: z.number().int().positive().nullable(),
    webhookUrl: z.string().url().nullable(),
    webhookHeaders: z.record(z.string(), z.string()),
    bodyTemplate: z.string().min(1),
    webhookTimeoutMs: z.number().int().positive().max(120_000),
    steps: z.record(z.string().min(1), z.object({ url: z.string().url(), headers: z.record(z.string(), z.string()).default({}), bodyTemplate: z.string().min(1) })),
  })
  .partial();

const driverSendSchema = z.object({
  subscriberId: z.coerce.string().min(1),
  text: z.string(),
  step: z.string().min(1).optional(),
  url: z.string().url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  bodyTemplate: z.string().min(1).optional(),
  timeoutMs: z.number().int().positive().max(120_000).optional(),
});

/** A utility template the page has approved: Meta's naming (lowercase, digits, underscores), its placeholders optional. */
const templateSchema = z.object({ name: z.string().regex(/^[a-z0-9_]{1,512}$/), variables: z.array(z.string().min(1)).optional() });

const badRequest = (error: unknown) => ({ error: 'invalid request', details: (error as { issues?: unknown }).issues ?? String(error) });

/** /__sim/ routes for tests and people: state, seeding, options, delivered messages, the driver. */
export function registerControlRoutes(app: FastifyInstance, state: ManyChatState): void {
  app.get('/__sim/state', async () => ({
    page: state.page,
    flows: state.flows,
    tags: state.tags,
    fields: state.fields,
    subscribers: [...state.subscribers.values()].map((s) => ({ ...state.view(s), channel: s.channel, user_ref: s.user_ref })),
  }));
  app.post('/__sim/seed', async (request) => {
    state.seed(request.body as SeedData);
    return { seeded: true };
  });
  app.post('/__sim/subscribers', async (request, reply) => {
    const items = [request.body].flat() as (Partial<Subscriber> & { id: string })[];
    if (items.some((s) => typeof s?.id !== 'string' || !/^\d+$/.test(s.id))) return reply.code(400).send({ error: 'each subscriber needs a numeric string id' });
    return { subscribers: items.map((s) => state.view(state.upsertSubscriber(s))) };
  });

  app.get('/__sim/templates', async () => ({ templates: [...state.templates.values()] }));
  /** Approves one template or a list (replacing any of the same name), as Meta's review would. */
  app.post('/__sim/templates', async (request, reply) => {
    const parsed = z.union([templateSchema, z.array(templateSchema)]).safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(badRequest(parsed.error));
    for (const template of [parsed.data].flat()) state.templates.set(template.name, template);
    return { templates: [...state.templates.values()] };
  });

  app.get('/__sim/options', async () => state.options);
  app.post('/__sim/options', async (request, reply) => {
    const parsed = optionsSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(badRequest(parsed.error));
    Object.assign(state.options, parsed.data);
    return state.options;
  });

  app.get('/__sim/messages', async (request) => {
    const { subscriberId } = request.query as { subscriberId?: string };
    return { messages: state.messages.filter((m) => !subscriberId || m.subscriberId === subscriberId) };
  });
  app.delete('/__sim/messages', async () => {
    state.messages = [];
    return { messages: [] };
  });

  app.post('/__sim/driver/send', async (request, reply) => {
    const parsed = driverSendSchema.safeParse(request.body);
    if (!parsed.success) return reply.code(400).send(badRequest(parsed.error));
    try {
      return await driveWebhook(state, parsed.data);
    } catch (error) {
      return reply.code(400).send({ error: (error as Error).message });
    }
  });
  app.get('/__sim/driver/exchanges', async () => ({ exchanges: state.exchanges }));
}
