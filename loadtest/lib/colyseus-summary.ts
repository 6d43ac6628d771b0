/**
 * What `npm run loadtest:colyseus` prints when it ends (loadtest/colyseus-bot.ts): the tool's own terminal UI
 * (`@colyseus/loadtest`, blessed) is gone by then and its log file holds the UI's `{red-fg}…{/red-fg}` markup, so
 * the bot keeps its own counters and prints them as plain text, and strips the markup from the `--output` file.
 */
import { round, Samples } from './stats.ts';

export class BotRunStats {
  /** Bots that joined the world. */
  connected = 0;
  /** Bots whose token or join was refused (the tool logs why). */
  failed = 0;
  /** Refusals from the server other than walking into a wall, and bots that lost their connection before the end. */
  errors = 0;
  sent = 0;
  received = 0;
  /** From a bot's `player:move` to the server's answer to it (`player:path`, or a refusal of the move). */
  readonly roundTrip = new Samples();
}

const figure = (value: number) => (Number.isFinite(value) ? String(round(value, 1)) : '–');

/** The plain summary: one `label: value` per line under a title line. */
export function plainSummary(stats: BotRunStats, seconds: number): string {
  const trip = stats.roundTrip;
  const lines = [
    'loadtest:colyseus summary',
    `  run:               ${round(seconds, 1)} s`,
    `  connected:         ${stats.connected}`,
    `  failed:            ${stats.failed}`,
    `  errors:            ${stats.errors}`,
    `  messages sent:     ${stats.sent}`,
    `  messages received: ${stats.received}`,
    trip.count === 0
      ? '  move → answer, ms: no move was answered'
      : `  move → answer, ms: p50 ${figure(trip.p(50))} · p90 ${figure(trip.p(90))} · p99 ${figure(trip.p(99))} · max ${figure(trip.p(100))} (${trip.count} moves)`,
  ];
  return `${lines.join('\n')}\n`;
}

/** blessed's tags (`{red-fg}`, `{/yellow-fg}`, `{bold}` …), which the tool writes into its log file as they are. */
const MARKUP = /\{\/?(?:[a-z]+-(?:fg|bg)|bold|underline|blink|inverse|invisible|center|left|right)\}/g;

export function withoutMarkup(text: string): string {
  return text.replace(MARKUP, '');
}
