import net from 'node:net';

// Below Linux's ephemeral range (32768–60999): servers that listen on port 0, and outgoing
// connections, never take these, so a port found free here stays free until its owner listens.
const FIRST = 20_000;
const LAST = 32_000;

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port that is free right now, for servers that must know their own URL before they listen
 * (an OIDC issuer, the gateway's public URL, Dovecot).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST));
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port found between ${FIRST} and ${LAST}`);
}
