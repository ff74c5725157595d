import { runMain } from '@bo/platform/runtime';
import { startEmbedded } from './launcher';

// `make start`: the whole system in this process, until Ctrl-C.
runMain(async () => {
  const system = await startEmbedded({ port: Number(process.env.PORT ?? 5000) });
  console.log(`
  Back-office is running: ${system.url}

  Sign in:   ${system.url}/login → "Sign in" and type ${system.adminEmails[0]} (administrator;
             any other e-mail signs in as a non-admin), or a local account made with
             make create-admin USERNAME=… PASSWORD=…
  Simulators (what "outside" saw):
             Google Sheets  ${system.simulators.sheets.url}/__sim/
             OpenID Connect ${system.simulators.oidc.url}/__sim/
  Data:      ${system.dataDir} (delete it to start over)
  Stop:      Ctrl-C
`);
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log('\nStopping…');
      system.stop().then(
        () => process.exit(0),
        (error) => {
          console.error('stop failed:', error);
          process.exit(1);
        },
      );
    });
  }
});
