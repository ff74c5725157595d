import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Below Linux's ephemeral range (32768–60999): servers that listen on port 0, and outgoing
// connections, never take these, so a port found free here stays free until its owner listens.
const FIRST = 20_000;
const BLOCK_SIZE = 200;
const BLOCKS = 60; // 20000–31999

/**
 * Where processes claim their blocks: one file per block, holding its owner's pid. Every process
 * on this machine that picks ports this way (test workers, launchers, benches) takes a block of
 * its own, so two of them never pick the same port, however many run at once: a port picked by
 * one is not yet listening, so a bind check alone would hand it to the other too.
 */
const CLAIMS = path.join(os.tmpdir(), 'bo-port-blocks');

let block: { next: number; end: number } | undefined;

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Claims the block's file for this process: new, or left by a process that is gone. */
function claim(index: number): boolean {
  const file = path.join(CLAIMS, String(index));
  try {
    const fd = openSync(file, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const owner = Number(readFileSync(file, 'utf8'));
  if (owner === process.pid || isAlive(owner)) return false;
  // Taken over by a rename (atomic); two takers at once both rename, and the one read back wins.
  const mine = `${file}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  renameSync(mine, file);
  return Number(readFileSync(file, 'utf8')) === process.pid;
}

function claimBlock(): { next: number; end: number } {
  mkdirSync(CLAIMS, { recursive: true, mode: 0o1777 });
  const start = Math.floor(Math.random() * BLOCKS);
  for (let i = 0; i < BLOCKS; i++) {
    const index = (start + i) % BLOCKS;
    if (claim(index)) return { next: FIRST + index * BLOCK_SIZE, end: FIRST + (index + 1) * BLOCK_SIZE };
  }
  throw new Error(`every block of ports between ${FIRST} and ${FIRST + BLOCKS * BLOCK_SIZE - 1} is held by a running process (${CLAIMS})`);
}

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port that is free right now and that no other process will be handed, for servers that must
 * know their own URL before they listen (an OIDC issuer, the gateway's public URL, Dovecot, a
 * service the others must call). Ports come in turn from this process's own block.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    block ??= claimBlock();
    while (block.next < block.end) {
      const port = block.next++;
      if (await tryListen(port)) return port;
    }
    block = undefined; // used up: the next block of its own
  }
}
