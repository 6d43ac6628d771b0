/**
 * `node watchdog.ts <harness pid> <list file>`: kills the process groups listed in the file once the harness is
 * gone (a `kill -9` of the harness leaves no handler to do it). Polls twice a second; ends by itself after 48 h.
 */
import fs from 'node:fs';

const [harness, listFile] = process.argv.slice(2);
const until = Date.now() + 48 * 3600_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const timer = setInterval(() => {
  if (alive(Number(harness)) && Date.now() < until) return;
  clearInterval(timer);
  let groups: number[] = [];
  try {
    groups = JSON.parse(fs.readFileSync(listFile, 'utf8')) as number[];
  } catch {
    // no list: nothing to kill
  }
  for (const pid of groups) {
    try {
      process.kill(-pid, 'SIGCONT');
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}, 500);
