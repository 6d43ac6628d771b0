/**
 * Loaded with `--import` into every server a load scenario starts (server-process.ts): the server stops itself once
 * the load tool that started it is gone, however the tool ended (a `kill -9` leaves it no handler to stop its
 * children). It polls its parent's pid twice a second; when the parent changes (the orphan was re-parented), it
 * sends itself SIGTERM — the server's graceful shutdown — and exits outright if that has not ended it in 15 s.
 */
const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  setTimeout(() => process.exit(1), 15_000).unref();
  process.kill(process.pid, 'SIGTERM');
}, 500);
timer.unref();
