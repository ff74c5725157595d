import { defineConfig } from 'vitest/config';

// One run covers every workspace. Server suites talk to the machine's real PostgreSQL, Redis and
// RabbitMQ, each in its own database / key prefix / vhost, so files may run in parallel. The
// browser journeys (web/vitest.config.ts) start the embedded system and run one file at a time.
// The longest fault drills (SIGKILL between effect and ack, a 30 s broker cut under 200 payments,
// broker-side connection faults, a 30 s PostgreSQL cut under 10 payments/s on each bus, a ManyChat
// slower than a minute): `make test-node22` sets SKIP_FAULT_DRILLS=1, since `make test` has
// already run them under Node 20.
const faultDrills = [
  'deploy/embedded/test/paid-consumer-sigkill.test.ts',
  'deploy/embedded/test/money-path.test.ts',
  'platform/test/events/rabbitmq-faults.test.ts',
  'services/payments/test/database-outage-rabbitmq.test.ts',
  'services/payments/test/database-outage-embedded.test.ts',
  'services/notifications/test/slow-manychat.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['{platform,proto,gateway,deploy,services/*,simulators/*,deploy/*}/test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/dist/**', ...(process.env.SKIP_FAULT_DRILLS === '1' ? faultDrills : [])],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
