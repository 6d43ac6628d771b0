/** The pre-encoded frames of the walker benchmark's floors (raw-send-server.ts writes them, raw-send-floor.ts counts them). */

/** The size of the game's acknowledgement of a move (a player:path frame). */
export const ACK_BYTES = 120;

/** A JSON text frame of exactly `bytes` bytes, built once. */
export function frameOf(type: string, bytes: number): string {
  const head = `{"type":"${type}","data":{"pad":"`;
  const tail = '"}}';
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail;
}
