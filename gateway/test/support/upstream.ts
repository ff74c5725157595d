import Fastify from 'fastify';

/**
 * A stand-in for a service behind the gateway (not a mock of our client): it answers the pricing
 * paths from a mutable list, echoes the headers it received, and answers any other path with what
 * it was asked, so tests see what the gateway sent.
 */
export async function startUpstream() {
  const prices = new Map<string, string>([['netflix', '10000']]);
  const seen: Record<string, string | string[] | undefined>[] = [];
  let configStatusUp = true;
  // Event streams this stand-in holds open until the test ends them (endStreams), so a test sees
  // what arrived before the end by order, never by timing.
  const openStreams = new Set<(last: string) => void>();
  const app = Fastify();
  app.addHook('onRequest', async (request) => void seen.push({ ...request.headers }));
  app.get('/api/prices', async (_request, reply) => {
    reply.header('x-upstream', 'pricing');
    return { data: [...prices].map(([product, price]) => ({ product, price })), count: prices.size };
  });
  app.get('/api/prices/:product', async (request) => ({ product: (request.params as { product: string }).product, headers: request.headers }));
  app.post('/api/prices/:product', async (request) => {
    const { product } = request.params as { product: string };
    prices.set(product, String((request.body as { price: string }).price));
    return { success: true };
  });
  app.post('/api/sheets/update', async (request) => ({ received: request.body, headers: request.headers }));
  // Says how much of a webhook body arrived (the gateway must forward it whole, or nothing).
  app.post('/api/qpay/callback', async (request) => ({ bytes: JSON.stringify(request.body).length }));
  app.get('/api/cache/status', async (request, reply) => {
    if (request.headers.accept !== 'text/event-stream') return { cached: true, headers: request.headers };
    // A stream the gateway must pass through as it comes (the scraper's progress will be one).
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write('data: first\n\n');
    const end = (last: string) => {
      openStreams.delete(end);
      reply.raw.end(last);
    };
    openStreams.add(end);
    reply.raw.once('close', () => openStreams.delete(end));
    return reply;
  });
  app.get('/internal/pricing/config-status', async (request, reply) => {
    if (!configStatusUp) return reply.code(500).send({ error: 'down' });
    return { items: [{ name: 'Google Sheets price list', category: 'Pricing', configured: true, simulated: true, identitySeen: Boolean(request.headers['x-internal-identity']) }] };
  });
  // Any other route the gateway forwards is answered, so a test sees it was forwarded (and where).
  app.setNotFoundHandler(async (request) => ({ forwarded: true, method: request.method, url: request.url }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    seen,
    prices,
    setConfigStatusUp: (up: boolean) => void (configStatusUp = up),
    /** Sends `last` on every event stream still open and ends it. */
    endStreams: (last = 'data: second\n\n') => [...openStreams].forEach((end) => end(last)),
    close: async () => {
      [...openStreams].forEach((end) => end(''));
      await app.close();
    },
  };
}
export type Upstream = Awaited<ReturnType<typeof startUpstream>>;
