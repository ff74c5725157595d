import { listen, type Simulator } from '@bo/sim-kit';
import { buildMailboxSimulator } from '@bo/sim-mailbox';
import { buildManyChatSimulator } from '@bo/sim-manychat';
import { buildMarketplaceSimulator } from '@bo/sim-marketplace';
import { buildOpenAiSimulator } from '@bo/sim-openai';
import { buildQpaySimulator } from '@bo/sim-qpay';
import { buildWooCommerceSimulator } from '@bo/sim-woocommerce';

export type OutsideSystem = 'woocommerce' | 'qpay' | 'manychat' | 'openai' | 'marketplace' | 'mailbox';

export interface RunningSimulator {
  url: string;
  /** For the mailbox: where IMAP listens. */
  imap?: { host: string; port: number };
}

export interface OutsideSimulators {
  running: Partial<Record<OutsideSystem, RunningSimulator>>;
  /** Simulators that could not start, with why and how to fix it (the mailbox needs Dovecot). */
  unavailable: Partial<Record<OutsideSystem, string>>;
  stop(): Promise<void>;
}

/**
 * The stand-ins for the outside systems later services talk to. Their state lives in memory and
 * is seeded at every start; each shows what it received at <url>/__sim/.
 */
export async function startOutsideSimulators(ports: Record<OutsideSystem, number>): Promise<OutsideSimulators> {
  const running: OutsideSimulators['running'] = {};
  const unavailable: OutsideSimulators['unavailable'] = {};
  const started: Simulator[] = [];
  const start = async (name: OutsideSystem, simulator: Simulator, extra: Partial<RunningSimulator> = {}) => {
    started.push(simulator);
    running[name] = { url: await listen(simulator.app, ports[name]), ...extra };
  };

  await start('woocommerce', buildWooCommerceSimulator());
  const qpay = buildQpaySimulator();
  await qpay.ready;
  await start('qpay', qpay);
  await start('manychat', buildManyChatSimulator());
  await start('openai', buildOpenAiSimulator());
  await start('marketplace', buildMarketplaceSimulator());
  const mailbox = await buildMailboxSimulator();
  if (mailbox.available) await start('mailbox', mailbox, { imap: { host: mailbox.imap.host, port: mailbox.imap.port } });
  else unavailable.mailbox = `${mailbox.reason} (install it with: ${mailbox.install})`;

  return {
    running,
    unavailable,
    async stop() {
      for (const simulator of started.reverse()) await simulator.app.close();
    },
  };
}
