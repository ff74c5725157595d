import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@bo/platform';
import { MemoryTransport } from '@bo/platform/events';
import { embeddedInfrastructure } from '@bo/platform/runtime';
import { loadServiceDefinition, type SimulatorUrls } from '@bo/platform/service';
import { domainServiceNames, urlVariableOf } from '@bo/proto';
import { freePort, listen } from '@bo/sim-kit';
import { buildOidcSimulator } from '@bo/sim-oidc';
import { startOutsideSimulators, type OutsideSimulators, type RunningSimulator } from './outside-simulators';
import { loadOrCreateSecrets } from './secrets';
import { startEmbeddedPostgres } from './postgres';
import { startPersistentSheets } from './sheets-state';

export interface EmbeddedOptions {
  /** Where PGlite, the simulators' state and the generated secrets live. */
  dataDir?: string;
  /** The gateway's port; 0 picks a free one. */
  port?: number;
  /** Simulators listen on this port and the next ones (stable URLs for people); 0 picks free ports. */
  simulatorBasePort?: number;
  /** Administrators at OIDC sign-in. */
  adminEmails?: string[];
  quiet?: boolean;
}

export interface EmbeddedSystem {
  url: string;
  dataDir: string;
  /** The embedded PostgreSQL (operators' tools, tests). */
  databaseUrl: string;
  adminEmails: string[];
  simulators: Record<'sheets' | 'oidc', RunningSimulator> & OutsideSimulators['running'];
  /** Simulators that could not start, with the reason and the fix. */
  unavailable: OutsideSimulators['unavailable'];
  stop(): Promise<void>;
}

/** One port per simulator, in a fixed order from the base (or all 0: free ports). */
function simulatorPortPlan(base: number) {
  const names = ['sheets', 'oidc', 'woocommerce', 'qpay', 'manychat', 'openai', 'marketplace', 'mailbox'] as const;
  return Object.fromEntries(names.map((name, index) => [name, base ? base + index : 0])) as Record<(typeof names)[number], number>;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The whole system in one process: the simulators, then one PGlite, one memory cache and one
 * memory event transport shared by every service, then the services and the gateway in front.
 */
export async function startEmbedded(options: EmbeddedOptions = {}): Promise<EmbeddedSystem> {
  const dataDir = path.resolve(options.dataDir ?? path.join(repoRoot, 'data'));
  const adminEmails = options.adminEmails ?? ['admin@example.com'];
  await mkdir(dataDir, { recursive: true });
  const logger = createLogger('embedded', options.quiet ? 'silent' : 'info');
  const secrets = await loadOrCreateSecrets(dataDir);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const close of stops.reverse()) await close().catch((error) => logger.error({ err: error }, 'stop step failed'));
  };

  try {
    const port = options.port || (await freePort());
    const simulatorPorts = simulatorPortPlan(options.simulatorBasePort ?? 0);
    const publicUrl = `http://localhost:${port}`;

    const sheets = await startPersistentSheets(dataDir);
    const sheetsUrl = await listen(sheets.simulator.app, simulatorPorts.sheets);
    stops.push(() => sheets.simulator.app.close());

    const oidcUrl = `http://127.0.0.1:${simulatorPorts.oidc || (await freePort())}`;
    const oidc = buildOidcSimulator({
      issuer: oidcUrl,
      client: { client_id: 'backoffice', client_secret: secrets.oidcClientSecret, redirect_uris: [`${publicUrl}/api/callback`] },
    });
    await listen(oidc.simulator.app, Number(new URL(oidcUrl).port));
    stops.push(() => oidc.simulator.app.close());

    const outside = await startOutsideSimulators(simulatorPorts);
    stops.push(() => outside.stop());
    const mailbox = outside.running.mailbox;

    const postgres = await startEmbeddedPostgres(path.join(dataDir, 'postgres'), (line) => logger.debug({ postgres: line }));
    stops.push(() => postgres.stop());
    const transport = new MemoryTransport();
    stops.push(() => transport.close());
    // Each service gets its own pool, cache and locks over the shared server and transport.
    const infrastructureFor = async () => {
      const infrastructure = await embeddedInfrastructure({ databaseUrl: postgres.url, transport });
      stops.push(() => infrastructure.close());
      return infrastructure;
    };

    const simulatorUrls: SimulatorUrls = {
      sheets: sheetsUrl,
      oidc: oidcUrl,
      ...(Object.fromEntries(Object.entries(outside.running).map(([name, sim]) => [name, sim.url])) as Omit<SimulatorUrls, 'sheets' | 'oidc'>),
    };
    const common = { INTERNAL_IDENTITY_SECRET: secrets.identitySecret, LOG_LEVEL: options.quiet ? 'silent' : 'warn' };
    // Every domain service of the registry, started the way its definition says, on a free port.
    const serviceUrls: Record<string, string> = {};
    for (const name of domainServiceNames) {
      const definition = await loadServiceDefinition(name);
      const config = definition.configSchema.parse({ ...common, PORT: '0', ...definition.simulatorEnv(simulatorUrls) });
      const service = await definition.start({ config, logger: createLogger(name, (config as { LOG_LEVEL: string }).LOG_LEVEL), infrastructure: await infrastructureFor() });
      stops.push(() => service.stop());
      serviceUrls[urlVariableOf(name)] = await service.app.listen({ port: 0, host: '127.0.0.1' });
    }

    const gateway = await loadServiceDefinition('gateway');
    const gatewayConfig = gateway.configSchema.parse({
      ...common,
      ...gateway.simulatorEnv(simulatorUrls),
      ...serviceUrls,
      PORT: String(port),
      OPS_PORT: '0',
      PUBLIC_URL: publicUrl,
      SESSION_SECRET: secrets.sessionSecret,
      OIDC_CLIENT_SECRET: secrets.oidcClientSecret,
      ADMIN_EMAILS: adminEmails.join(','),
      MAILBOX_IMAP_URL: mailbox?.imap ? `imap://${mailbox.imap.host}:${mailbox.imap.port}` : '',
      WEB_DIST_DIR: path.join(repoRoot, 'web/dist'),
    }) as { LOG_LEVEL: string };
    const running = await gateway.start({ config: gatewayConfig, logger: createLogger('gateway', gatewayConfig.LOG_LEVEL), infrastructure: await infrastructureFor() });
    stops.push(() => running.stop());
    await running.app.listen({ port, host: 'localhost' });

    return {
      url: publicUrl,
      dataDir,
      databaseUrl: postgres.url,
      adminEmails,
      simulators: { sheets: { url: sheetsUrl }, oidc: { url: oidcUrl }, ...outside.running },
      unavailable: outside.unavailable,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
