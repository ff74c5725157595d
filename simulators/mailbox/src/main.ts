import { listen } from '@bo/sim-kit';
import { buildMailboxSimulator, ensureDovecot } from './app';

const dovecot = ensureDovecot();
if (!dovecot.available) {
  console.error(`Mailbox simulator not started: ${dovecot.reason}. Install with: ${dovecot.install}`);
  process.exit(1);
}
const sim = await buildMailboxSimulator({ imapPort: process.env.IMAP_PORT ? Number(process.env.IMAP_PORT) : undefined });
if (!sim.available) {
  console.error(`Mailbox simulator not started: ${sim.reason}`);
  process.exit(1);
}
const url = await listen(sim.app, Number(process.env.PORT ?? 0));
console.log(`Mailbox simulator: IMAP on ${sim.imap.host}:${sim.imap.port}; control page ${url}/__sim/`);
for (const close of ['SIGINT', 'SIGTERM']) process.once(close, () => void sim.app.close().then(() => process.exit(0)));
