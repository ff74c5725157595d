import type { RunningService } from '@bo/platform/service';
import { startTestSystem, type TestReply, type TestSystem } from '@bo/platform/testing/services';
export { eventually } from '@bo/platform/testing/eventually';
import { listen } from '@bo/sim-kit';
import { buildManyChatSimulator, type DeliveredMessage } from '@bo/sim-manychat';
import streamingKeys from '@bo/streaming-keys/service';
import { aiChatSubscriberWrote, createEnvelope, type EventEnvelope, type TemplateKind } from '@bo/proto';
import type { NotificationsExposed } from '../src/app';
import type { PrismaClient } from '../src/generated/prisma/client';
import notifications, { SIMULATOR_MANYCHAT_TOKEN } from '../src/service';

export type NotificationsService = RunningService<PrismaClient, NotificationsExposed>;

/** Never during a test run: the tests trigger the check themselves. */
export const NEVER_CRON = '0 0 1 1 *';

export interface NotificationsSystem {
  system: TestSystem;
  notifications: NotificationsService;
  manychat: ReturnType<typeof buildManyChatSimulator>;
  manychatUrl: string;
  /** A request to notifications as the gateway forwards it: as an admin unless `headers` say otherwise. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestReply>;
  /** What the ManyChat simulator delivered to a subscriber (newest first). */
  messages(subscriberId: string): DeliveredMessage[];
  /** The event of the chat seeing the subscriber write (ai-chat.subscriber.wrote), `ago` ms back; their message count grows with each. */
  wroteEvent(subscriberId: string, ago?: number): EventEnvelope<{ subscriberId: string; revision: number; at: string }>;
  /** Publishes a wroteEvent. */
  wrote(subscriberId: string, ago?: number): Promise<void>;
  /** Names each kind's utility template on /manychat-admin ('' clears it), approving it on the simulated page unless it is there already. */
  useTemplates(names: Partial<Record<TemplateKind, string>>): Promise<void>;
  /** Starts streaming-keys in this system (its internal routes: expiring keys, delivery details, renewal sessions). */
  startStreamingKeys(): Promise<RunningService>;
  /** A request to streaming-keys as an admin. */
  callKeys(method: string, path: string, body?: unknown): Promise<TestReply>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}


/**
 * notifications as it runs in production (its PostgreSQL schema, Redis, RabbitMQ) against the
 * ManyChat simulator. streaming-keys has a URL in the system (notifications needs one) but runs
 * only when a suite starts it (startStreamingKeys). `env` overrides notifications' settings (e.g. no token);
 * `transport: 'embedded'` puts the services on the embedded run's bus (PostgreSQL) instead of RabbitMQ.
 */
export async function startNotificationsSystem(name: string, options: { env?: Record<string, string>; transport?: 'rabbitmq' | 'embedded' } = {}): Promise<NotificationsSystem> {
  const manychat = buildManyChatSimulator();
  const manychatUrl = await listen(manychat.app);
  // payments has a URL (streaming-keys needs one) but never runs here: no test below makes an invoice.
  const system = await startTestSystem(name, { services: ['notifications', 'streaming-keys', 'payments'], transport: options.transport });
  const env = {
    MANYCHAT_API_URL: manychatUrl,
    MANYCHAT_API_TOKEN: SIMULATOR_MANYCHAT_TOKEN,
    MANYCHAT_TIMEOUT_MS: '1000',
    EXPIRY_CHECK_CRON: NEVER_CRON,
    ...options.env,
  };
  const messageCounts = new Map<string, number>();
  const handle: NotificationsSystem = {
    system,
    notifications: await system.start<NotificationsService>(notifications as never, env),
    manychat,
    manychatUrl,
    call: (method, path, body, headers) => system.call('notifications', method, path, body, headers),
    startStreamingKeys: () => system.start(streamingKeys as never),
    callKeys: (method, path, body) => system.call('streaming-keys', method, path, body),
    messages: (subscriberId) => manychat.state.messages.filter((message) => message.subscriberId === subscriberId),
    wroteEvent(subscriberId, ago = 0) {
      const revision = (messageCounts.get(subscriberId) ?? 0) + 1;
      messageCounts.set(subscriberId, revision);
      return createEnvelope(aiChatSubscriberWrote, { subscriberId, revision, at: new Date(Date.now() - ago).toISOString() });
    },
    wrote: (subscriberId, ago) => system.publish(handle.wroteEvent(subscriberId, ago)),
    async useTemplates(names) {
      for (const [kind, name] of Object.entries(names)) {
        if (name && !manychat.state.templates.has(name)) manychat.state.templates.set(name, { name });
        const saved = await system.call('notifications', 'POST', '/api/manychat/settings', { key: `template_${kind}`, value: name });
        if (saved.status !== 200) throw new Error(`template_${kind} not saved: ${JSON.stringify(saved.body)}`);
      }
    },
    async restart() {
      handle.notifications = await system.restart<NotificationsService>('notifications');
    },
    async stop() {
      await system.stop();
      await manychat.app.close();
    },
  };
  return handle;
}

/** The text of a message the simulator delivered; a template's is its variables' values, one a line. */
export const textOf = (message: DeliveredMessage): string =>
  message.templateName
    ? Object.values((message.content as { variables: Record<string, string> }).variables).join('\n')
    : (message.content as { messages: { text: string }[] }).messages.map((m) => m.text).join('\n');
