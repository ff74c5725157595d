/**
 * The one registry of processes: every deployable (the gateway and each domain service) is one
 * line here. The gateway's upstreams, the embedded launcher, the distributed launcher, the compose
 * and Kubernetes files, the migration targets and the deploy checks all read this list. A service's
 * code is found by convention: the workspace package `@bo/<name>` exports its definition from
 * `./service` (see platform's defineService).
 */
export const serviceRegistry = [
  { name: 'gateway', port: 5000, summary: 'the public entry: sign-in, sessions, routing, request log, web app' },
  { name: 'pricing', port: 5101, summary: 'the Google Sheets price list, its cache and price edits' },
  { name: 'shop-sync', port: 5102, summary: 'the WooCommerce shop: product mappings, price pushes, sync, auto-map, export, orders' },
  { name: 'payments', port: 5103, summary: 'QPay: settings, invoices, callbacks and their check, the chat webhook, the public invoice view' },
  { name: 'streaming-keys', port: 5104, summary: 'streaming keys and their slots, pricing, streaming invoices, key assignment, renewals, QR codes' },
  { name: 'notifications', port: 5105, summary: 'ManyChat messages: key delivery, payment confirmation, renewal reminders and their settings' },
  { name: 'ai-chat', port: 5106, summary: 'AI providers with fallback, system prompts, and the e-mail parser (expressions first, AI second)' },
  { name: 'scraper', port: 5107, summary: 'game-item marketplaces to priced products: marketplaces and their scrape configs, the exchange rate, commission tiers' },
] as const;

export type ServiceName = (typeof serviceRegistry)[number]['name'];
/** The domain services: every registry entry behind the gateway. */
export type DomainServiceName = Exclude<ServiceName, 'gateway'>;

export const serviceNames = serviceRegistry.map((entry) => entry.name) as ServiceName[];
export const domainServiceNames = serviceNames.filter((name): name is DomainServiceName => name !== 'gateway');

/** A service's PostgreSQL schema (one per service). */
export const schemaOf = (name: ServiceName): string => name.replaceAll('-', '_');

/** The environment variable that tells the gateway where a service listens, e.g. PRICING_URL. */
export const urlVariableOf = (name: DomainServiceName): string => `${name.replaceAll('-', '_').toUpperCase()}_URL`;

export const registryEntry = (name: ServiceName) => serviceRegistry.find((entry) => entry.name === name)!;
