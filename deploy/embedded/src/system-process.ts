import { createLogger } from '@bo/platform';
import { exitOnUncaught, runMain } from '@bo/platform/runtime';
import { ensureDovecot } from '@bo/sim-mailbox';
import { startEmbedded } from './launcher';
import { describeSimulators } from './simulators';
import { stopOnSignal } from './stop-on-signal';
import { STOP_TIMEOUT_MS } from './supervisor';

/** Seconds since this process began and the memory it holds now (the database and Dovecot run apart). */
function startedIn(): string {
  const { rss, heapUsed } = process.memoryUsage();
  const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
  return `in ${(performance.now() / 1000).toFixed(1)} s; this process holds ${mb(rss)} (JavaScript heap ${mb(heapUsed)})`;
}

/** What this process tells the supervisor (main.ts) that started it, once the system serves. */
export interface SystemReady {
  ready: { url: string };
}

// The whole system in this process, until Ctrl-C, kept running by main.ts (`make start`).
runMain(async () => {
  // A person at a terminal reads one line per entry; piped or redirected output stays JSON.
  const logFormat = process.stdout.isTTY ? 'pretty' : 'json';
  // Any service's failure nobody caught ends the process, for main.ts to start it again.
  exitOnUncaught(createLogger('embedded', 'info', logFormat));
  // The mailbox simulator is a real IMAP server (Dovecot); install it when this machine allows.
  ensureDovecot();
  const system = await startEmbedded({
    dataDir: process.env.DATA_DIR || undefined,
    port: Number(process.env.PORT ?? 5000),
    // HOST=0.0.0.0 PUBLIC_URL=http://<this machine's LAN address>:5000 serves the rest of a LAN (README).
    host: process.env.HOST || undefined,
    publicUrl: process.env.PUBLIC_URL || undefined,
    simulatorBasePort: Number(process.env.SIMULATOR_BASE_PORT ?? 4101),
    logFormat,
  });
  console.log(`
  Back-office is running: ${system.url}

  Sign in:   ${system.url}/login → "Sign in" and type ${system.adminEmails[0]} (administrator;
             any other e-mail signs in as a non-admin), or a local account made with
             make create-admin USERNAME=… PASSWORD=…
  Simulators (what "outside" saw):
${describeSimulators({ running: system.simulators, unavailable: system.unavailable }, '             ')}
  Data:      ${system.dataDir} (delete it to start over)
  Started:   ${startedIn()}
  Stop:      Ctrl-C
`);
  stopOnSignal(() => system.stop());
  // The supervisor gone (killed with SIGKILL, say): nobody would start this process again or stop
  // it, so it stops itself as a container runtime would stop it: cleanly, or ended after the grace
  // period (its database's watchdog then stops the database).
  process.once('disconnect', () => {
    console.error('The supervisor (make start) is gone: the system stops.');
    process.kill(process.pid, 'SIGTERM');
    setTimeout(() => process.exit(1), STOP_TIMEOUT_MS).unref();
  });
  process.send?.({ ready: { url: system.url } } satisfies SystemReady);
});
