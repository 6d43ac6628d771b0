/**
 * "Every world number is live on at most one process", from every process' `/status`, polled at once. A world
 * counts as live on a process only while its entry says `lease: "held"` (a server without leases lists no `lease`:
 * every world it lists is taken as held). A world seen on two processes is polled again 200 ms later and counted
 * only if it is still there (two answers are never taken at exactly the same instant); one violation per episode
 * (the same world on the same processes in consecutive polls), with the polls that saw it counted apart.
 * Where /status reports epochs (fenced ownership, docs/scaling.md), a world a process calls held with an epoch older
 * than its row in the database (read after the /status answers, and confirmed by a second poll) is a stale lease.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, ServerNode } from './cluster.ts';
import { clock } from './sessions.ts';
import type { Violations } from './violations.ts';

interface StatusWorld { world: number; players: number; epoch?: number; lease?: string }

/** The worlds a process' /status lists; undefined when it does not answer within 1.5 s. */
export async function statusOf(node: ServerNode): Promise<StatusWorld[] | undefined> {
  try {
    const response = await fetch(`${node.baseUrl}/status`, { signal: AbortSignal.timeout(1_500) });
    return ((await response.json()) as { worlds?: StatusWorld[] }).worlds;
  } catch {
    return undefined;
  }
}

/** The `worlds` rows' epochs by number (undefined when the table has no epoch column: a server without leases). */
export type WorldEpochs = () => Promise<Map<number, number> | undefined>;

export class StatusWatch {
  private readonly cluster: Cluster;
  private readonly violations: Violations;
  private readonly epochs: WorldEpochs;
  private staleOngoing = new Set<string>();
  polls = 0;
  pollsWithTwoLive = 0;
  /** Episodes under way: "world:processes". */
  private ongoing = new Set<string>();

  constructor(cluster: Cluster, violations: Violations, epochs: WorldEpochs) {
    this.cluster = cluster;
    this.violations = violations;
    this.epochs = epochs;
  }

  /** World number → the processes it is live on, with what they say of it. */
  private async live(): Promise<Map<number, Array<{ node: string; world: StatusWorld }>>> {
    const answers = await Promise.all(this.cluster.nodes.map(async (node) => ({ node, worlds: await statusOf(node) })));
    const out = new Map<number, Array<{ node: string; world: StatusWorld }>>();
    for (const { node, worlds } of answers) {
      for (const world of worlds ?? []) {
        // Only a held lease acts for a world: a suspended one refuses everything, a lost one is closing its sessions.
        if (world.lease !== undefined && world.lease !== 'held') continue;
        out.set(world.world, [...(out.get(world.world) ?? []), { node: node.name, world }]);
      }
    }
    return out;
  }

  async poll(): Promise<void> {
    this.polls++;
    const first = await this.live();
    const doubled = [...first].filter(([, on]) => on.length > 1);
    const now = new Set<string>();
    if (doubled.length > 0) {
      await sleep(200);
      const again = await this.live();
      let counted = false;
      for (const [world, on] of doubled) {
        const still = again.get(world) ?? [];
        const names = on.map((x) => x.node).filter((name) => still.some((y) => y.node === name));
        if (names.length < 2) continue;
        counted = true;
        const key = `${world}:${names.join(',')}`;
        now.add(key);
        if (this.ongoing.has(key)) continue;
        const described = still.filter((x) => names.includes(x.node))
          .map((x) => `${x.node} (players ${x.world.players}${x.world.epoch !== undefined ? `, epoch ${x.world.epoch}` : ''}, lease ${x.world.lease ?? 'not reported'})`);
        this.violations.add('world-on-two-processes', `world ${world} live on ${described.join(' and ')} at ${clock(Date.now())}`);
      }
      if (counted) this.pollsWithTwoLive++;
    }
    this.ongoing = now;
    await this.checkEpochs(first);
  }

  private async checkEpochs(live: Map<number, Array<{ node: string; world: StatusWorld }>>): Promise<void> {
    const reported = [...live].flatMap(([number, on]) => on.filter((x) => x.world.epoch !== undefined).map((x) => ({ number, ...x })));
    if (reported.length === 0) return;
    const inDb = await this.epochs().catch(() => undefined);
    if (!inDb) return;
    const stale = reported.filter((x) => inDb.has(x.number) && x.world.epoch! < inDb.get(x.number)!);
    const now = new Set<string>();
    if (stale.length > 0) {
      await sleep(200);
      const again = await this.live();
      for (const x of stale) {
        const still = (again.get(x.number) ?? []).find((y) => y.node === x.node && y.world.epoch === x.world.epoch);
        if (!still) continue;
        const key = `${x.number}:${x.node}:${x.world.epoch}`;
        now.add(key);
        if (!this.staleOngoing.has(key)) {
          this.violations.add('stale-lease', `world ${x.number}: ${x.node} reports it ${x.world.lease ?? 'held'} with epoch ${x.world.epoch}, the database's row has epoch ${inDb.get(x.number)} (${clock(Date.now())})`);
        }
      }
    }
    this.staleOngoing = now;
  }

  /** Polls every `intervalMs` until `until()` is true (bounded by `maxPolls`). */
  async run(intervalMs: number, until: () => boolean, maxPolls = 100_000): Promise<void> {
    for (let i = 0; i < maxPolls && !until(); i++) {
      await this.poll();
      await sleep(intervalMs);
    }
  }
}
