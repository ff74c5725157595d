import Fastify, { type FastifyInstance } from 'fastify';
import { FaultBook } from './faults';
import { Journal } from './journal';
import { htmlTable, renderPage, type PageSection } from './page';

export interface Simulator {
  app: FastifyInstance;
  faults: FaultBook;
  journal: Journal;
  /** Adds sections to the /__sim/ page; called on every page view so it shows live state. */
  addPageSections(render: () => PageSection[] | Promise<PageSection[]>): void;
  /** Registers what /__sim/reset must also clear (the simulator's own state). */
  onReset(reset: () => void | Promise<void>): void;
}

export interface SimulatorOptions {
  /** Shown on the /__sim/ page, e.g. "QPay v2". */
  title: string;
  logger?: boolean;
}

/**
 * The frame every simulator is built on. Imitated paths are registered by the simulator on `app`;
 * everything for tests and people lives under /__sim/: faults, the request journal, reset, the page.
 */
export function createSimulator(options: SimulatorOptions): Simulator {
  // A stand-in stops at once when told: a request a 'slow' fault still holds (its client long gone) must not keep close() waiting.
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 5 * 1024 * 1024, forceCloseConnections: true });
  const faults = new FaultBook();
  const journal = new Journal();
  const pageRenderers: (() => PageSection[] | Promise<PageSection[]>)[] = [];
  const resets: (() => void | Promise<void>)[] = [];
  // Held answers go on before the server closes, so that no handler is left waiting for a release.
  app.addHook('preClose', async () => {
    faults.release();
  });

  app.addHook('onRequest', async (request, reply) => {
    const [path, search = ''] = request.url.split('?');
    if (path.startsWith('/__sim')) return;
    const rule = faults.take(request.method, path, new URLSearchParams(search));
    if (!rule) return;
    (request as { simFault?: string }).simFault = rule.kind;
    if (rule.kind === 'hold') {
      const { released, held } = faults.hold(rule, { method: request.method, url: request.url });
      let answered = false;
      reply.raw.once('close', () => {
        if (!answered) held.clientGone = true;
      });
      await released;
      answered = true;
      return;
    }
    if (rule.kind === 'slow') {
      await new Promise((resolve) => setTimeout(resolve, rule.delayMs));
      return;
    }
    if (rule.kind === 'drop') {
      request.raw.socket.destroy();
      return reply;
    }
    reply.code(rule.status).headers(rule.headers);
    if (rule.kind === 'html') {
      return reply
        .type('text/html')
        .send(`<html><head><title>${rule.status} Bad Gateway</title></head><body><center><h1>${rule.status} Bad Gateway</h1></center><hr><center>nginx</center></body></html>`);
    }
    return reply.send(rule.body ?? { error: 'SIMULATED_FAULT' });
  });

  app.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/__sim')) return;
    journal.record({
      at: new Date().toISOString(),
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      fault: (request as { simFault?: string }).simFault,
    });
  });

  app.get('/__sim/faults', async () => ({ faults: faults.list() }));
  app.post('/__sim/faults', async (request, reply) => {
    const body = request.body;
    const rules = Array.isArray(body) ? body : [body];
    try {
      return { faults: rules.map((rule) => faults.add(rule)) };
    } catch (error) {
      return reply.code(400).send({ error: 'invalid fault rule', details: (error as { issues?: unknown }).issues });
    }
  });
  app.delete('/__sim/faults', async () => {
    faults.clear();
    return { faults: [] };
  });
  // The requests 'hold' rules keep waiting, and their release (one rule's with `id`, else every hold's).
  app.get('/__sim/held', async () => ({ held: faults.held() }));
  app.post<{ Body: { id?: number } | null }>('/__sim/faults/release', async (request) => ({ released: faults.release(request.body?.id) }));
  // `?limit=` keeps the answer small; `total` counts every request ever received, so a test can tell that none arrived.
  app.get<{ Querystring: { limit?: string } }>('/__sim/requests', async (request) => {
    const limit = Number(request.query.limit);
    return { total: journal.total, requests: Number.isInteger(limit) && limit >= 0 ? journal.list().slice(0, limit) : journal.list() };
  });
  app.post('/__sim/reset', async () => {
    faults.clear();
    journal.clear();
    for (const reset of resets) await reset();
    return { reset: true };
  });
  app.get('/__sim/health', async () => ({ status: 'ok' }));
  app.get('/__sim', async (_request, reply) => reply.redirect('/__sim/'));
  app.get('/__sim/', async (_request, reply) => {
    const sections: PageSection[] = [];
    for (const render of pageRenderers) sections.push(...(await render()));
    sections.push({ title: 'Active faults', html: htmlTable(faults.list() as never, ['id', 'method', 'pathPrefix', 'kind', 'status', 'delayMs', 'times', 'fired']) });
    const held = faults.held();
    if (held.length > 0) sections.push({ title: 'Requests held (released by POST /__sim/faults/release)', html: htmlTable(held as never, ['rule', 'method', 'url', 'since', 'clientGone']) });
    sections.push({ title: 'Requests received (newest first)', html: htmlTable(journal.list().slice(0, 50) as never, ['at', 'method', 'url', 'status', 'ms', 'fault']) });
    return reply.type('text/html').send(renderPage(options.title, sections));
  });

  return {
    app,
    faults,
    journal,
    addPageSections: (render) => pageRenderers.push(render),
    onReset: (reset) => resets.push(reset),
  };
}

/**
 * Listens (port 0 picks a free one) and returns the base URL. Loopback by default; a container
 * sets HOST=0.0.0.0 so that the other containers reach it.
 */
export async function listen(app: FastifyInstance, port = 0, host = process.env.HOST ?? '127.0.0.1'): Promise<string> {
  await app.listen({ port, host });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('simulator did not bind a TCP port');
  return `http://${host}:${address.port}`;
}
