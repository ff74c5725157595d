import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { anonymousRefusal, authenticate, checkKeyPermission, type Action } from './auth';
import * as catalog from './catalog';
import { WooError } from './errors';
import { commaList, pageOf, runBatch, sortBy, type Answer, type LinkBuilder } from './listing';
import { filterOrders, findOrder } from './orders';
import type { Product, WooState } from './state';

interface Call {
  method: string;
  ids: number[];
  query: Record<string, string>;
  body: unknown;
  link: LinkBuilder;
}
interface Route {
  pattern: RegExp;
  /** Per HTTP method: the permission action and the handler. */
  methods: Record<string, [Action, (call: Call) => Answer]>;
}

const forced = (query: Record<string, string>) => query.force === 'true' || query.force === '1';
const writeMethods = ['POST', 'PUT', 'PATCH'];
/** Update is served on PUT, POST and PATCH like WordPress' EDITABLE. */
const editable = (handler: (call: Call) => Answer): Route['methods'] => Object.fromEntries(writeMethods.map((m) => [m, ['edit', handler]]));

function productFilter(query: Record<string, string>) {
  const skus = commaList(query.sku);
  const include = commaList(query.include)?.map(Number);
  const status = query.status ?? 'any';
  const search = query.search?.toLowerCase();
  return (product: Product) =>
    (status === 'any' ? product.status !== 'trash' : product.status === status) &&
    (!query.type || product.type === query.type) &&
    (!query.stock_status || product.stock_status === query.stock_status) &&
    (!skus || skus.includes(product.sku)) &&
    (!include || include.includes(product.id)) &&
    (!search || [product.name, product.description, product.short_description].some((text) => text.toLowerCase().includes(search)));
}

function routes(state: WooState): Route[] {
  const product = (call: Call) => ({ body: catalog.productView(state, catalog.findProduct(state, call.ids[0])) });
  const productsView = (list: Product[]) => list.map((p) => catalog.productView(state, p));
  return [
    {
      pattern: /^\/wc\/v3\/products$/,
      methods: {
        GET: ['list', (call) => {
          const keys = { id: (p: Product) => p.id, title: (p: Product) => p.name, slug: (p: Product) => p.slug, date: (p: Product) => p.date_created };
          const key = keys[(call.query.orderby ?? 'date') as keyof typeof keys] ?? keys.date;
          const found = sortBy([...state.products.values()].filter(productFilter(call.query)), call.query.order === 'asc' ? 'asc' : 'desc', key);
          const answer = pageOf(state, found, call.query, call.link);
          return { ...answer, body: productsView(answer.body as Product[]) };
        }],
        POST: ['create', (call) => ({ status: 201, body: catalog.productView(state, catalog.createProduct(state, call.body)) })],
      },
    },
    {
      pattern: /^\/wc\/v3\/products\/batch$/,
      methods: Object.fromEntries(writeMethods.map((m) => [m, ['batch', (call: Call) => runBatch(state, call.body, {
        create: (input) => catalog.productView(state, catalog.createProduct(state, input)),
        update: (id, input) => catalog.productView(state, catalog.updateProduct(state, id, input)),
        remove: (id) => catalog.deleteProduct(state, id, true),
      })]])),
    },
    {
      pattern: /^\/wc\/v3\/products\/(\d+)$/,
      methods: {
        GET: ['view', product],
        ...editable((call) => ({ body: catalog.productView(state, catalog.updateProduct(state, call.ids[0], call.body)) })),
        DELETE: ['delete', (call) => ({ body: catalog.deleteProduct(state, call.ids[0], forced(call.query)) })],
      },
    },
    {
      pattern: /^\/wc\/v3\/products\/(\d+)\/variations$/,
      methods: {
        GET: ['list', (call) => {
          catalog.findProduct(state, call.ids[0]);
          // The variations endpoint inherits the products' collection parameters, sku among them.
          const skus = commaList(call.query.sku);
          const found = sortBy(state.variationsOf(call.ids[0]).filter((v) => !skus || skus.includes(v.sku)), call.query.order === 'asc' ? 'asc' : 'desc', (v) => v.id);
          const answer = pageOf(state, found, call.query, call.link);
          return { ...answer, body: (answer.body as typeof found).map((v) => catalog.variationView(state, v)) };
        }],
        POST: ['create', (call) => ({ status: 201, body: catalog.variationView(state, catalog.createVariation(state, call.ids[0], call.body)) })],
      },
    },
    {
      pattern: /^\/wc\/v3\/products\/(\d+)\/variations\/batch$/,
      methods: Object.fromEntries(writeMethods.map((m) => [m, ['batch', (call: Call) => {
        catalog.findProduct(state, call.ids[0]);
        return runBatch(state, call.body, {
          create: (input) => catalog.variationView(state, catalog.createVariation(state, call.ids[0], input)),
          update: (id, input) => catalog.variationView(state, catalog.updateVariation(state, call.ids[0], id, input)),
          remove: (id) => catalog.deleteVariation(state, call.ids[0], id, true),
        });
      }]])),
    },
    {
      pattern: /^\/wc\/v3\/products\/(\d+)\/variations\/(\d+)$/,
      methods: {
        GET: ['view', (call) => ({ body: catalog.variationView(state, catalog.findVariation(state, call.ids[0], call.ids[1])) })],
        ...editable((call) => ({ body: catalog.variationView(state, catalog.updateVariation(state, call.ids[0], call.ids[1], call.body)) })),
        DELETE: ['delete', (call) => ({ body: catalog.deleteVariation(state, call.ids[0], call.ids[1], forced(call.query)) })],
      },
    },
    {
      pattern: /^\/wc\/v3\/orders$/,
      methods: {
        GET: ['list', (call) => pageOf(state, sortBy(filterOrders(state, call.query), call.query.order === 'asc' ? 'asc' : 'desc'), call.query, call.link)],
      },
    },
    {
      pattern: /^\/wc\/v3\/orders\/(\d+)$/,
      methods: { GET: ['view', (call) => ({ body: findOrder(state, call.ids[0]) })] },
    },
  ];
}

const noRoute = new WooError(404, 'rest_no_route', 'No route was found matching the URL and request method.');

/** Authentication runs before routing (rest_authentication_errors), the route's permission check after. */
function dispatch(state: WooState, table: Route[], request: FastifyRequest, restRoute: string, query: Record<string, string>, link: LinkBuilder): Answer {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  const key = authenticate(state, query, request.headers.authorization);
  if (key) checkKeyPermission(key, method);
  for (const route of table) {
    const match = route.pattern.exec(restRoute.replace(/\/$/, ''));
    const entry = match && route.methods[method];
    if (!match || !entry) continue;
    const [action, handler] = entry;
    if (!key) throw anonymousRefusal[action];
    return handler({ method, ids: match.slice(1).map(Number), query, body: request.body, link });
  }
  throw noRoute;
}

function send(reply: FastifyReply, run: () => Answer) {
  try {
    const answer = run();
    return reply.code(answer.status ?? 200).headers(answer.headers ?? {}).send(answer.body);
  } catch (error) {
    if (!(error instanceof WooError)) throw error;
    return reply.code(error.status).send(error.toBody());
  }
}

const flatQuery = (query: unknown) =>
  Object.fromEntries(Object.entries((query ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]));

/** Serves /wp-json/wc/v3/… and the plain-permalink form /?rest_route=/wc/v3/…. */
export function registerWooApi(app: FastifyInstance, state: WooState): void {
  const table = routes(state);
  const origin = (request: FastifyRequest) => `${request.protocol}://${request.headers.host}`;
  app.all('/wp-json/*', async (request, reply) => {
    const restRoute = `/${(request.params as { '*': string })['*']}`;
    const link: LinkBuilder = (query) => `${origin(request)}/wp-json${restRoute}?${new URLSearchParams(query)}`;
    return send(reply, () => dispatch(state, table, request, restRoute, flatQuery(request.query), link));
  });
  app.all('/', async (request, reply) => {
    const { rest_route: restRoute, ...query } = flatQuery(request.query);
    if (!restRoute) return reply.type('text/html').send('<html><body><h1>Shop</h1><p>WordPress front page (simulated).</p></body></html>');
    const link: LinkBuilder = (args) => `${origin(request)}/?${new URLSearchParams({ rest_route: restRoute, ...args })}`;
    return send(reply, () => dispatch(state, table, request, restRoute, query, link));
  });
}
