import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { supervise } from './supervisor';
import type { SystemReady } from './system-process';

/**
 * `make start`: runs the whole system in a process of its own (system-process.ts) and keeps it
 * running, as a container runtime would: a failure nobody caught ends that process (its last
 * line), an OOM killer may end it, and either way it is started again on the same data. This
 * process holds nothing but the supervision, so a failure of the system's never ends it; and if
 * this one is killed, the system process notices and stops cleanly, its database with it.
 */
const systemProcess = path.join(path.dirname(fileURLToPath(import.meta.url)), 'system-process.ts');

/** Starts the system process and resolves once it serves (it says so), or rejects when it ends first. */
async function startSystem(): Promise<ChildProcess> {
  // Its own loader options (tsx) and this terminal; the IPC channel is how it says it is ready.
  const child = fork(systemProcess, [], { execArgv: process.execArgv, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  const ready = new Promise<void>((resolve) => child.on('message', (message: Partial<SystemReady>) => message.ready && resolve()));
  const ended = once(child, 'exit').then(([code, signal]) => {
    throw new Error(`the system stopped while starting (${signal ?? `exit code ${code}`})`);
  });
  await Promise.race([ready, ended]);
  ended.catch(() => {}); // its end after the start is the supervisor's to handle
  return child;
}

// The first start's failure was printed by the system process: there is nothing to keep running.
const system = await supervise({ name: 'The system', start: startSystem, log: (line) => console.error(`\n${line}\n`) }).catch(() => process.exit(1));
// Ctrl-C reaches the system process too (one terminal, one process group; it says "Stopping…"); a
// SIGTERM sent to this one alone is passed on. Either way it stops once, and this process with it.
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void system.stop().then((code) => process.exit(code === 0 ? 0 : 1));
  });
}
// Stopped by someone else (its own SIGTERM): nothing is left to supervise.
void system.ended.then(() => process.exit(0));
