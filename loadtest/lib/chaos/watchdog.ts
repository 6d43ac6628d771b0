/**
 * `node watchdog.ts <harness pid> <list file>`: kills the process groups listed in the file once the harness is
 * gone (a `kill -9` of the harness leaves no handler to do it), then runs the file's last-resort commands (dropping
 * the scratch database). Polls twice a second; ends by itself after 48 h.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { processAlive } from '../process-monitor.ts';

const [harness, listFile] = process.argv.slice(2);
const until = Date.now() + 48 * 3600_000;

const timer = setInterval(() => {
  if (processAlive(Number(harness)) && Date.now() < until) return;
  clearInterval(timer);
  let list: { groups: number[]; lastResort: string[][] } = { groups: [], lastResort: [] };
  try {
    list = JSON.parse(fs.readFileSync(listFile, 'utf8')) as typeof list;
  } catch {
    // no list: nothing to do
  }
  for (const pid of list.groups) {
    try {
      process.kill(-pid, 'SIGCONT');
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const [command, ...args] of list.lastResort) {
    try {
      execFileSync(command, args, { stdio: 'ignore', timeout: 15_000 });
    } catch {
      // best effort
    }
  }
}, 500);
