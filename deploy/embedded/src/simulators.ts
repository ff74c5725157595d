import type { SimulatorUrls } from '@bo/platform/service';
import { freePort, listen } from '@bo/sim-kit';
import { buildOidcSimulator } from '@bo/sim-oidc';
import { startOutsideSimulators, type OutsideSimulators, type RunningSimulator } from './outside-simulators';
import { startPersistentSheets } from './sheets-state';

export interface SimulatorOptions {
  /** Where the Sheets simulator keeps its spreadsheets across restarts. */
  dataDir: string;
  /** Simulators listen on this port and the next ones (stable URLs for people); 0 picks free ports. */
  basePort: number;
  /** The gateway's public URL, for the sign-in simulator's redirect. */
  publicUrl: string;
  oidcClientSecret: string;
}

export interface RunningSimulators {
  urls: SimulatorUrls;
  /** For the banner: each running simulator's URL (and the mailbox's IMAP address). */
  running: Record<'sheets' | 'oidc', RunningSimulator> & OutsideSimulators['running'];
  /** Simulators that could not start, with the reason and the fix. */
  unavailable: OutsideSimulators['unavailable'];
  stop(): Promise<void>;
}

/** One port per simulator, in a fixed order from the base (or all 0: free ports). */
function portPlan(base: number) {
  const names = ['sheets', 'oidc', 'woocommerce', 'qpay', 'manychat', 'openai', 'marketplace', 'mailbox'] as const;
  return Object.fromEntries(names.map((name, index) => [name, base ? base + index : 0])) as Record<(typeof names)[number], number>;
}

/** Every outside system's stand-in, for both launchers that run on one machine. */
export async function startSimulators(options: SimulatorOptions): Promise<RunningSimulators> {
  const ports = portPlan(options.basePort);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const close of stops.reverse()) await close();
  };
  try {
    const sheets = await startPersistentSheets(options.dataDir);
    const sheetsUrl = await listen(sheets.simulator.app, ports.sheets);
    stops.push(() => sheets.simulator.app.close());

    const oidcUrl = `http://127.0.0.1:${ports.oidc || (await freePort())}`;
    const oidc = buildOidcSimulator({
      issuer: oidcUrl,
      client: { client_id: 'backoffice', client_secret: options.oidcClientSecret, redirect_uris: [`${options.publicUrl}/api/callback`] },
    });
    await listen(oidc.simulator.app, Number(new URL(oidcUrl).port));
    stops.push(() => oidc.simulator.app.close());

    const outside = await startOutsideSimulators(ports);
    stops.push(() => outside.stop());
    const imap = outside.running.mailbox?.imap;
    return {
      urls: {
        sheets: sheetsUrl,
        oidc: oidcUrl,
        ...(Object.fromEntries(Object.entries(outside.running).map(([name, sim]) => [name, sim.url])) as Omit<SimulatorUrls, 'sheets' | 'oidc' | 'mailboxImap'>),
        mailboxImap: imap ? `imap://${imap.host}:${imap.port}` : '',
      },
      running: { sheets: { url: sheetsUrl }, oidc: { url: oidcUrl }, ...outside.running },
      unavailable: outside.unavailable,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** What the start banners say of the simulators: each one's page (with the mailbox's IMAP address), and those that could not start. */
export function describeSimulators({ running, unavailable }: Pick<RunningSimulators, 'running' | 'unavailable'>, indent: string): string {
  const notes: Record<string, string> = { oidc: '  (development sign-in; its sign-in sessions live in memory)', woocommerce: '  (its shop lives in memory: original prices at each start)' };
  const lines = Object.entries(running).map(([name, sim]) => `${indent}${name.padEnd(12)} ${sim.url}/__sim/${sim.imap ? `  (IMAP ${sim.imap.host}:${sim.imap.port})` : ''}${notes[name] ?? ''}`);
  for (const [name, why] of Object.entries(unavailable)) lines.push(`${indent}${name.padEnd(12)} not running: ${why}`);
  return lines.join('\n');
}
