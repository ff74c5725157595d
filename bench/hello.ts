import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

// The bare baseline: Fastify with no plugins, as fast as this machine serves HTTP. GET / answers a
// small JSON. With BARE_ANSWER_FILE, GET /answer sends that file's bytes as JSON, so a server that
// answers the same bytes as the gateway shows what the answer's size costs alone; with
// BARE_RESPONSE_HEADERS_FILE too (a JSON object), GET /response sends them with those headers, the
// gateway's whole kept response less what belongs to one request: what that response costs any server.
const app = Fastify();
const answer = process.env.BARE_ANSWER_FILE ? readFileSync(process.env.BARE_ANSWER_FILE) : null;
const headers = process.env.BARE_RESPONSE_HEADERS_FILE ? (JSON.parse(readFileSync(process.env.BARE_RESPONSE_HEADERS_FILE, 'utf8')) as Record<string, string>) : null;
app.get('/health', async () => ({ status: 'healthy' }));
app.get('/', async () => ({ hello: 'world' }));
if (answer) app.get('/answer', async (_request, reply) => reply.type('application/json; charset=utf-8').send(answer));
if (answer && headers) app.get('/response', async (_request, reply) => reply.headers(headers).send(answer));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
