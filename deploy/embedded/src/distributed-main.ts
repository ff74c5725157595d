import { runMain } from '@bo/platform/runtime';
import { stopOnSignal } from './stop-on-signal';
import { startDistributed } from './distributed';

// `make start-distributed`: every service and the gateway as separate processes on this machine's
// PostgreSQL, Redis and RabbitMQ (URLs from DATABASE_URL, REDIS_URL, AMQP_URL), until Ctrl-C.
runMain(async () => {
  const system = await startDistributed({
    databaseUrl: process.env.DATABASE_URL || undefined,
    redisUrl: process.env.REDIS_URL || undefined,
    amqpUrl: process.env.AMQP_URL || undefined,
    port: process.env.PORT ? Number(process.env.PORT) : undefined,
  });
  console.log(`
  Back-office (distributed, one process per service) is running: ${system.url}

  Processes: ${Object.entries(system.processes).map(([name, child]) => `${name} (pid ${child.pid})`).join(', ')}
  Operations: ${system.opsUrl}/ready and /metrics (the gateway's; each service answers them on its own port)
  Sign in:   ${system.url}/login → "Sign in" and type admin@example.com
  Stop:      Ctrl-C (each process gets SIGTERM, as in a container)
`);
  stopOnSignal(() => system.stop());
});
