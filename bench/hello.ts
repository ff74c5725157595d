import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

// The bare baseline: Fastify with no plugins, as fast as this machine serves HTTP. GET / answers a
// small JSON; with BARE_ANSWER_FILE, GET /answer sends that file's bytes as JSON, so a server that
// answers the same bytes as the gateway shows what the answer's size costs alone.
const app = Fastify();
const answer = process.env.BARE_ANSWER_FILE ? readFileSync(process.env.BARE_ANSWER_FILE) : null;
app.get('/health', async () => ({ status: 'healthy' }));
app.get('/', async () => ({ hello: 'world' }));
if (answer) app.get('/answer', async (_request, reply) => reply.type('application/json; charset=utf-8').send(answer));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
