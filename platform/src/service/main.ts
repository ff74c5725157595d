import type { ServiceName } from '@bo/proto';
import { loadConfig, type ServiceEnv } from '../config';
import { createLogger } from '../logging';
import { connectInfrastructure, exitOnUncaught, runMain, stopOnSignals } from '../runtime';
import type { ServiceDefinition } from './define-service';

/** A registered process's definition, found by convention: `@bo/<name>/service` exports it as default. */
export async function loadServiceDefinition(name: ServiceName): Promise<ServiceDefinition> {
  const module = (await import(`@bo/${name}/service`)) as { default?: ServiceDefinition };
  if (!module.default || module.default.name !== name) throw new Error(`@bo/${name}/service must export its ServiceDefinition (name "${name}") as default`);
  return module.default;
}

/**
 * The whole main.ts of every process in the distributed run: read and check the environment,
 * connect PostgreSQL, Redis and RabbitMQ, start, listen, and stop cleanly on SIGTERM/SIGINT
 * (the app stops taking requests, in-flight work and the flushes finish, then connections close).
 */
export function runServiceMain(definition: ServiceDefinition): void {
  runMain(async () => {
    const config = loadConfig(definition.configSchema as never, process.env) as ServiceEnv & { OPS_PORT?: number };
    const logger = createLogger(definition.name, config.LOG_LEVEL);
    exitOnUncaught(logger);
    const infrastructure = await connectInfrastructure(config, definition.name, logger);
    const running = await definition.start({ config, logger, infrastructure });
    await running.app.listen({ host: config.HOST, port: config.PORT });
    // /ready and /metrics on their own port where the app keeps them off the public one (the gateway).
    if (running.app.operations !== running.app) await running.app.operations.listen({ host: config.HOST, port: config.OPS_PORT ?? 0 });
    logger.info({ port: config.PORT }, 'listening');
    stopOnSignals(async () => {
      await running.stop();
      await infrastructure.close();
    }, logger);
  });
}
