/** Helpers for the quest suites: NPC positions, dialogue steps over /ws, quest rows read and written by SQL. */
import type { Database } from '../../src/db/database.ts';
import { request, seed, type Reply, type Seed, type Seeded } from '../economy/support.ts';
import { anonymousAccount, createCharacterRow, jsonPlayer } from '../helpers/players.ts';
import type { TestServer } from '../helpers/server.ts';
import type { JsonWsClient, WsEvent } from '../helpers/ws-client.ts';

/**
 * On Old Tamsin's spawn tile (spawns.json npcs[5] at 110, 146). She wanders up to 2 tiles from it and talking needs
 * REACH (2), so only from there is she always in reach: a tile beside it was 3 away once she had wandered.
 */
export const AT_TAMSIN = { x: 110, z: 146 };
export const TAMSIN = 'npc-5';
/** Beside Dunstan (npcs[2] at 90, 113). */
export const AT_DUNSTAN = { x: 90, z: 112 };
/** Beside Brother Aldous (npcs[4] at 101, 115). */
export const AT_ALDOUS = { x: 101, z: 114 };

export type Step = Reply;

/** A dialogue's answer; talking to an NPC first closes a dialogue still open (reason REPLACED), which is not one. */
function isDialogueAnswer(event: WsEvent): boolean {
  if (event.type === 'dialogue:closed') return event.data.reason !== 'REPLACED';
  return event.type === 'dialogue:open' || event.type === 'dialogue:node';
}

/**
 * Sends a dialogue event and waits for its answer: `dialogue:open` / `dialogue:node` / `dialogue:closed`, or an
 * `error` naming the event.
 */
export function step(client: JsonWsClient, type: string, data: unknown = {}, timeoutMs = 10_000): Promise<Step> {
  return request(client, type, data, isDialogueAnswer, timeoutMs);
}

/** The step's event, failing the test on a refusal. */
export async function expectStep(client: JsonWsClient, type: string, data: unknown = {}): Promise<WsEvent> {
  const answer = await step(client, type, data);
  if (!answer.ok) throw new Error(`${type} ${JSON.stringify(data)} was refused: ${answer.code}`);
  return answer.event;
}

export async function expectRefusal(client: JsonWsClient, type: string, data: unknown = {}): Promise<string> {
  const answer = await step(client, type, data);
  if (answer.ok) throw new Error(`${type} ${JSON.stringify(data)} was accepted (${answer.event.type}), expected a refusal`);
  return answer.code;
}

export function optionTexts(event: WsEvent): string[] {
  return (event.data.options as Array<{ text: string }>).map((o) => o.text);
}

export interface QuestRow {
  quest_id: string;
  stage: number;
  started_at: unknown;
  completed_at: unknown;
}

export async function questRows(db: Database, characterId: string): Promise<QuestRow[]> {
  const rows = await db.em.fork().execute<QuestRow[]>('select quest_id, stage, started_at, completed_at from quest_progress where character_id = ? order by quest_id', [characterId]);
  return rows.map((r) => ({ ...r, stage: Number(r.stage) }));
}

export async function characterColumns(db: Database, characterId: string, columns: string[]): Promise<Record<string, number>> {
  const [row] = await db.em.fork().execute<Array<Record<string, unknown>>>(`select ${columns.join(', ')} from characters where id = ?`, [characterId]);
  return Object.fromEntries(columns.map((c) => [c, Number(row[c])]));
}

/** Writes quest progress as if it had been played (before the character enters the world). */
export async function seedQuest(db: Database, characterId: string, questId: string, stage: number, completed = false): Promise<void> {
  const now = new Date().toISOString();
  await db.em.fork().execute(
    'insert into quest_progress (character_id, quest_id, stage, started_at, completed_at) values (?, ?, ?, ?, ?)',
    [characterId, questId, stage, now, completed ? now : null],
  );
}

/**
 * A new character at `at` with the items, prepared by `before` (quest rows, levels) while still offline, then
 * entered over /ws; resolves once its `quest:state` arrived.
 */
export async function questPlayer(
  server: TestServer,
  at: { x: number; z: number },
  items: Seed = {},
  before: (characterId: string) => Promise<void> = async () => {},
): Promise<Seeded> {
  const account = await anonymousAccount(server);
  const character = await createCharacterRow(server, account.accountId, at);
  await seed(server.context.db, character.id, items);
  await before(character.id);
  const client = await jsonPlayer(server, account, character.id);
  await client.waitFor('quest:state');
  return { account, characterId: character.id, client };
}

/** Sets levels (and the experience they need, in whole points) while the character is offline. */
export async function setLevels(db: Database, characterId: string, levels: Record<string, { level: number; xp: number }>): Promise<void> {
  for (const [skill, { level, xp }] of Object.entries(levels)) {
    await db.em.fork().execute(`update characters set ${skill}_level = ?, ${skill}_xp_tenths = ? where id = ?`, [level, xp * 10, characterId]);
  }
}
