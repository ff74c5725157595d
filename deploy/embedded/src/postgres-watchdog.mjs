// The embedded PostgreSQL's watchdog: `node postgres-watchdog.mjs <server pid>`, started by the
// process that started the server, with a pipe from it as standard input. The kernel closes that
// pipe when its launcher ends in any way (Ctrl-C, SIGKILL, an OOM kill): the server is then asked
// for a fast shutdown (SIGINT: open transactions roll back, committed data stays), so it never
// outlives its launcher with its memory and its data folder. Plain JavaScript, no imports of
// ours: it must start on bare `node`, whatever loaded its launcher.
const server = Number(process.argv[2]);

const alive = () => {
  try {
    process.kill(server, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
};

// Once the server is gone (stopped by its launcher, or by us), so is the watchdog.
setInterval(() => alive() || process.exit(0), 500);

const stopServer = () => {
  if (alive()) process.kill(server, 'SIGINT');
};
process.stdin.on('end', stopServer).on('error', stopServer).resume();
