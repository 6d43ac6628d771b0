/**
 * The SDK's alternative to schema sync (docs/worlds.md): an SDK client that joins with `updates: "json"` or
 * `"compact"` gets the area-of-interest deltas /ws clients get, as `world:update` room messages, instead of a
 * StateView. Its message is the JSON text of the frame's `data` (a string: the client parses it), so the room
 * serialises each frame once, as for /ws, and Colyseus only wraps the bytes. Everything else about the client is
 * the SDK's: its messages, limits and counts are the room's, and it joins other rooms itself.
 */
import { getMessageBytes, Protocol, type Client } from '@colyseus/core';
import type { TextFrame } from '../client-link.ts';
import type { UpdateEncoding } from './update-frames.ts';

/** Where the area-of-interest frames of a client go: its /ws link, or an SDK client's room messages. */
export interface UpdateSink {
  readonly updates: UpdateEncoding;
  sendText(text: string, event?: string): void;
  sendTexts(frames: ReadonlyArray<TextFrame>): void;
}

/** The `data` member of a `{"type":"…","data":…}` frame, as text (frames are built with `type` first). */
function dataText(frame: string): string {
  const start = frame.indexOf('"data":');
  return start < 0 ? frame : frame.slice(start + 7, -1);
}

export function roomMessageSink(client: Client, updates: UpdateEncoding): UpdateSink {
  const raw = client.raw.bind(client);
  // Without a view, the client's schema patches would carry only the world's tick counter — one more socket write
  // per client per tick, which the world:update already carries. They are not sent; room.state stays as joined.
  client.raw = ((data: Uint8Array | Buffer, ...rest: unknown[]) => {
    if (data[0] !== Protocol.ROOM_STATE_PATCH) (raw as (...args: unknown[]) => void)(data, ...rest);
  }) as Client['raw'];
  // Through the client's queue, not straight to the socket: until the SDK acknowledges its join, Colyseus holds
  // what is queued and sends it after the join completes, when `join()` has resolved and the client's handlers
  // are registered. The first frame (everything around the player) is written during onJoin: sent at once, it
  // reached the SDK before its join did, and was dropped as a message nobody listened to.
  const sendText = (text: string, event = 'world:update') => {
    client.enqueueRaw(getMessageBytes.raw(Protocol.ROOM_DATA, event, dataText(text)));
  };
  return {
    updates,
    sendText,
    sendTexts: (frames) => {
      for (const frame of frames) sendText(frame.text, frame.event);
    },
  };
}
