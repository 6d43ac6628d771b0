/**
 * Where every world is, from the three places that say so: the `worlds` rows (PostgreSQL decides who owns a
 * number), the room listings in Redis (how entries find a world) and each process' /status (what it runs). Printed
 * when a bot could not get back in after the last fault, so a failed run says which of the three disagreed.
 */
import { Redis } from 'ioredis';
import type { ServerNode } from './cluster.ts';
import { statusOf } from './status-watch.ts';

interface Row { number: number; epoch: string | number; process_id: string; room_id: string; live: boolean }
interface Listing { roomId?: string; processId?: string; locked?: boolean; clients?: number; maxClients?: number; metadata?: { world?: number; status?: string } }

async function statusWorlds(node: ServerNode): Promise<string> {
  const worlds = await statusOf(node);
  if (!worlds) return 'no answer';
  return worlds.map((w) => `world ${w.world} (epoch ${w.epoch ?? '?'}, lease ${w.lease ?? '?'}, ${w.players} players)`).join(', ') || 'no world';
}

async function listings(redisPort: number, prefix: string): Promise<string> {
  const redis = new Redis({ host: '127.0.0.1', port: redisPort, lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 2_000, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    const all = Object.values(await redis.hgetall(`${prefix}roomcaches`)).map((raw) => JSON.parse(raw) as Listing)
      .filter((listing) => listing.metadata?.world !== undefined)
      .sort((a, b) => a.metadata!.world! - b.metadata!.world!);
    return all.map((l) => `world ${l.metadata!.world} room ${l.roomId} on ${l.processId} (${l.metadata!.status}${l.locked ? ', locked' : ''}, ${l.clients}/${l.maxClients})`).join('; ') || 'none';
  } catch (error) {
    return `unreadable (${(error as Error).message})`;
  } finally {
    redis.disconnect();
  }
}

/** The census, one line per source. */
export async function worldCensus(nodes: ServerNode[], rows: () => Promise<Row[]>, redisPort: number, prefix: string): Promise<string[]> {
  const lines: string[] = [];
  try {
    const found = await rows();
    lines.push(`  PostgreSQL worlds: ${found.map((r) => `world ${r.number} epoch ${r.epoch} room ${r.room_id} on ${r.process_id}${r.live ? '' : ' (lapsed)'}`).join('; ') || 'none'}`);
  } catch (error) {
    lines.push(`  PostgreSQL worlds: unreadable (${(error as Error).message})`);
  }
  lines.push(`  Redis listings: ${await listings(redisPort, prefix)}`);
  for (const node of nodes) lines.push(`  ${node.name} (/status): ${await statusWorlds(node)}`);
  return lines;
}
