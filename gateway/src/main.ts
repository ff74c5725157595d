import { createLogger } from '@bo/platform';
import { connectInfrastructure, runMain, stopOnSignals } from '@bo/platform/runtime';
import { loadGatewayConfig } from './config';
import { createGatewayService } from './service';

runMain(async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const infrastructure = await connectInfrastructure(config, 'gateway', logger);
  const gateway = await createGatewayService({ config, logger, infrastructure });
  await gateway.app.listen({ host: config.HOST, port: config.PORT });
  // /ready and /metrics: for probes and scrapers on the inside, never on the public port.
  await gateway.app.operations.listen({ host: config.HOST, port: config.OPS_PORT });
  stopOnSignals(async () => {
    await gateway.stop();
    await infrastructure.close();
  }, logger);
});
