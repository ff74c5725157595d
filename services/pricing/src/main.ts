import { createLogger } from '@bo/platform';
import { connectInfrastructure, runMain, stopOnSignals } from '@bo/platform/runtime';
import { loadPricingConfig } from './config';
import { createPricingService, resolveCredentials } from './service';

runMain(async () => {
  const config = loadPricingConfig();
  const logger = createLogger('pricing', config.LOG_LEVEL);
  const infrastructure = await connectInfrastructure(config, 'pricing', logger);
  const service = await createPricingService({ config, logger, infrastructure, credentials: await resolveCredentials(config) });
  await service.app.listen({ port: config.PORT, host: config.HOST });
  stopOnSignals(async () => {
    await service.stop();
    await infrastructure.close();
  }, logger);
});
