import { connect } from 'node:net';
import { isSimulatorUrl, serviceHealthProblem, type SecretBox } from '@bo/platform';
import type { ConfigItem } from '@bo/proto';
import type { StreamingKeysConfig } from './config';
import { imapAddress } from './clients/mailbox';

const CATEGORY = 'Streaming keys';
const HEALTH_TIMEOUT_MS = 2_000;

/** Whether the IMAP server accepts a connection (signing in needs an account's password, which this check does not use). */
async function imapReachable(url: string): Promise<string | null> {
  const { host, port } = imapAddress(url);
  return await new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (error: string | null) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(HEALTH_TIMEOUT_MS, () => done(`the mailbox server ${host}:${port} did not answer in time`));
    socket.once('connect', () => done(null));
    socket.once('error', (error) => done(`the mailbox server ${host}:${port} is not reachable (${error.message})`));
  });
}

/** An item for an address that may be unset: not configured without it, else whether it answers. */
async function reachableItem(name: string, url: string | undefined, check: (url: string) => Promise<string | null>, simulated: boolean): Promise<ConfigItem> {
  const unreachable = url ? await check(url) : null;
  return { name, category: CATEGORY, configured: Boolean(url) && unreachable === null, simulated, ...(unreachable ? { error: unreachable } : {}) };
}

/** What the gateway's config-status page shows for this service (secrets never, only whether they are set; of the data key its id only). */
export async function streamingKeysConfigItems(config: StreamingKeysConfig, secrets: SecretBox): Promise<ConfigItem[]> {
  const [payments, aiChat, mailbox] = await Promise.all([
    serviceHealthProblem('payments', config.PAYMENTS_URL),
    reachableItem("AI chat service (parses customers' code mails)", config.AI_CHAT_URL, (url) => serviceHealthProblem('ai-chat', url), false),
    reachableItem("Mailbox server (IMAP, customers' code fetch)", config.MAILBOX_IMAP_URL, imapReachable, isSimulatorUrl(config.MAILBOX_IMAP_URL)),
  ]);
  return [
    { name: 'Payments service (streaming invoices and renewal links)', category: CATEGORY, configured: payments === null, simulated: false, ...(payments ? { error: payments } : {}) },
    { name: 'Public URL (renewal links)', category: CATEGORY, configured: Boolean(config.PUBLIC_URL), simulated: false },
    { name: 'Data encryption key (account passwords)', category: CATEGORY, configured: Boolean(config.DATA_ENCRYPTION_KEY), simulated: false, dataKey: secrets.status },
    aiChat,
    mailbox,
  ];
}
