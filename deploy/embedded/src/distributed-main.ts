import { runMain } from '@bo/platform/runtime';
import { stopOnSignal } from './stop-on-signal';
import { startDistributed } from './distributed';
import { describeSimulators } from './simulators';

// `make start-distributed`: every service and the gateway as separate processes on this machine's
// PostgreSQL, Redis and RabbitMQ (URLs from DATABASE_URL, REDIS_URL, AMQP_URL), until Ctrl-C.
runMain(async () => {
  const system = await startDistributed({
    databaseUrl: process.env.DATABASE_URL || undefined,
    redisUrl: process.env.REDIS_URL || undefined,
    amqpUrl: process.env.AMQP_URL || undefined,
    port: process.env.PORT ? Number(process.env.PORT) : undefined,
    // PORT=0: free ports for the gateway and every service (a second system beside a running one).
    freeServicePorts: process.env.PORT === '0',
    dataDir: process.env.DATA_DIR || undefined,
    // As `make start`: simulators on this port and the next ones, or free ports with 0.
    simulatorBasePort: Number(process.env.SIMULATOR_BASE_PORT ?? 4101),
  });
  console.log(`
  Back-office (distributed, one process per service) is running: ${system.url}

  Processes: ${Object.entries(system.processes).map(([name, child]) => `${name} (pid ${child.pid})`).join(', ')}
  Operations: ${system.opsUrl}/ready and /metrics (the gateway's; each service answers them on its own port)
  Sign in:   ${system.url}/login → "Sign in" and type admin@example.com
  Simulators (what "outside" saw):
${describeSimulators(system.simulators, '             ')}
  Stop:      Ctrl-C (each process gets SIGTERM, as in a container)
`);
  stopOnSignal(() => system.stop());
});
