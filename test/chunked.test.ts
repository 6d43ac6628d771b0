/** inChunks: every item once, in order, in chunks of the size asked, with the event loop free between chunks. */
import assert from 'node:assert/strict';
import { inChunks } from '../src/chunked.ts';

describe('work in chunks (inChunks)', () => {
  it('hands every item over once, in order, chunk by chunk, and lets the event loop turn between chunks', async () => {
    const seen: string[] = [];
    let turned = false;
    setImmediate(() => (turned = true));
    const turnedBefore: boolean[] = [];
    await inChunks(Array.from({ length: 11 }, (_, i) => i), 4, async (chunk) => {
      turnedBefore.push(turned);
      seen.push(chunk.join(','));
    });
    assert.deepEqual(seen, ['0,1,2,3', '4,5,6,7', '8,9,10']);
    // The immediate queued before the work ran only once a chunk was done: between chunks, not within a microtask.
    assert.deepEqual(turnedBefore, [false, true, true]);
    await inChunks([], 4, async () => assert.fail('no chunk for no items'));
  });
});
