import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { LAYOUTS, DEFAULT_SCRAPE_CONFIG } from './layout';
import { renderBlocked, renderCategory, renderIndex, renderNotFound, renderOffer } from './site-html';
import type { MarketplaceState } from './state';

const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/html; charset=utf-8').send(body);

/** The public site: index, category listings by page, offer pages; slowed or blocked by the switches. */
export function registerSiteRoutes(app: FastifyInstance, state: MarketplaceState): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.url.startsWith('/__sim')) return;
    const { delayMs } = state.switches;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const block = state.takeBlock();
    if (!block) return;
    if (block.status === 429) reply.header('retry-after', String(block.retryAfterSeconds));
    return html(reply, block.status, renderBlocked(block.status));
  });

  app.get('/', async (_request, reply) => html(reply, 200, renderIndex(state.games())));

  app.get<{ Params: { slug: string }; Querystring: { page?: string } }>('/categories/:slug', async (request, reply) => {
    const game = state.game(request.params.slug);
    if (!game) return html(reply, 404, renderNotFound(`No game called ${request.params.slug}.`));
    const page = Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1);
    return html(reply, 200, renderCategory(game, state.page(game.slug, page), page, LAYOUTS[state.switches.layout]));
  });

  app.get<{ Params: { id: string } }>('/offers/:id', async (request, reply) => {
    const offer = state.offer(request.params.id);
    if (!offer) return html(reply, 404, renderNotFound('This offer is no longer available.'));
    return html(reply, 200, renderOffer(offer, LAYOUTS[state.switches.layout]));
  });
}

const switchesSchema = z.object({
  layout: z.enum(['default', 'renamed']).optional(),
  delayMs: z.number().int().min(0).max(120_000).optional(),
  block: z
    .object({
      status: z.union([z.literal(403), z.literal(429)]),
      retryAfterSeconds: z.number().int().min(0).default(30),
      times: z.number().int().positive().optional(),
    })
    .nullable()
    .optional(),
});
const priceChangeSchema = z.object({ percent: z.number().min(-90).max(1000), every: z.number().int().positive().default(1), gameSlug: z.string().optional() });
const removeSchema = z.object({ ids: z.array(z.string()).optional(), every: z.number().int().positive().optional(), gameSlug: z.string().optional() });

function parse<T>(schema: z.ZodType<T>, body: unknown, reply: FastifyReply): T | undefined {
  const result = schema.safeParse(body ?? {});
  if (!result.success) void reply.code(400).send({ error: 'invalid request', details: result.error.issues });
  return result.success ? result.data : undefined;
}

const asJson = (offer: { priceCents: number }) => ({ ...offer, priceUsd: offer.priceCents / 100 });

/** The switches and the truth behind the site, for tests and the control page. */
export function registerControlRoutes(app: FastifyInstance, state: MarketplaceState): void {
  app.get('/__sim/state', async () => ({ seed: state.options.seed, pageSize: state.options.pageSize, switches: state.switches, priceChanges: state.priceChanges, games: state.games() }));
  app.get('/__sim/scrape-config', async () => DEFAULT_SCRAPE_CONFIG);
  app.get<{ Querystring: { game?: string } }>('/__sim/catalogue', async (request) => ({
    offers: (request.query.game ? state.offersOf(request.query.game) : state.offers).map(asJson),
    removed: state.removed.map(asJson),
  }));
  app.post('/__sim/switches', async (request, reply) => {
    const change = parse(switchesSchema, request.body, reply);
    if (!change) return reply;
    return { switches: state.setSwitches(change) };
  });
  app.post('/__sim/prices/change', async (request, reply) => {
    const input = parse(priceChangeSchema, request.body, reply);
    if (!input) return reply;
    return { changed: state.changePrices(input.percent, input.every, input.gameSlug).map(asJson) };
  });
  app.post('/__sim/offers/remove', async (request, reply) => {
    const input = parse(removeSchema, request.body, reply);
    if (!input) return reply;
    return { removed: state.removeOffers(input).map(asJson) };
  });
}
