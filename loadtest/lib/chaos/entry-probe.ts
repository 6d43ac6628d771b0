/**
 * "Every player can enter again": after the bots have left, each chaos character enters once more through a random
 * process (a fresh /ws `authenticate` with its character) and leaves. An entry that does not succeed within the bound
 * (retrying refusals every 500 ms meanwhile) is an availability violation naming the last refusal.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SoakSocket } from '../soak/socket.ts';
import type { ServerNode } from './cluster.ts';
import type { Violations } from './violations.ts';

export interface ProbeSubject { id: string; name: string; token: string }

async function enterOnce(node: ServerNode, who: ProbeSubject, timeoutMs: number): Promise<string | null> {
  let socket: SoakSocket | null = null;
  try {
    socket = await SoakSocket.open(node.wsUrl, Math.min(3_000, timeoutMs));
    const from = socket.mark();
    socket.send('authenticate', { token: who.token, characterId: who.id });
    const e = await socket.waitFrom(from, (x) => x.type === 'world:joined' || x.type === 'error' || (x.type === 'authResult' && !x.data.success), timeoutMs);
    if (e.type !== 'world:joined') return `refused ${String(e.data?.code ?? e.data?.error?.code)} ("${String(e.data?.message ?? e.data?.error?.message ?? "")}") through ${node.name}`;
    const left = socket.mark();
    socket.send('world:leave', {});
    await socket.waitFrom(left, (x) => x.type === 'world:left', 5_000).catch(() => undefined);
    return null;
  } catch (error) {
    return `${(error as Error).message} through ${node.name}`;
  } finally {
    socket?.close();
  }
}

/** Probes every subject at once; returns the slowest successful entry in milliseconds. */
export async function probeEntries(nodes: ServerNode[], subjects: ProbeSubject[], boundMs: number, violations: Violations, rnd: () => number): Promise<number> {
  const took = await Promise.all(subjects.map(async (who) => {
    const started = Date.now();
    let problem = 'no attempt';
    for (let attempt = 0; attempt < 100 && Date.now() - started < boundMs; attempt++) {
      const node = nodes[Math.floor(rnd() * nodes.length)];
      const result = await enterOnce(node, who, Math.max(500, boundMs - (Date.now() - started)));
      if (result === null) return Date.now() - started;
      problem = result;
      await sleep(500);
    }
    violations.add('availability', `${who.name} could not enter again within ${boundMs / 1000} s after the run (last: ${problem})`);
    return 0;
  }));
  return Math.max(0, ...took);
}
