import Fastify from 'fastify';

// The bare baseline: Fastify with one JSON route and no plugins, as fast as this machine serves HTTP.
const app = Fastify();
app.get('/health', async () => ({ status: 'healthy' }));
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
