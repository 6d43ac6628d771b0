/** The line leaving players' saves wait in (rooms/world/leave-saves.ts): a few at once, none held back for ever. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { saveLine } from '../../rooms/world/leave-saves.ts';

describe('the leave-save line', () => {
  it('runs at most its number of saves together, in order, and hands each save\'s result or error back', async () => {
    const line = saveLine(2, 5_000);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const saves = Array.from({ length: 6 }, (_, i) => line(async () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await sleep(15);
      running--;
      if (i === 3) throw new Error('refused');
      return i;
    }));
    const outcomes = await Promise.allSettled(saves);
    assert.equal(most, 2);
    assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);
    assert.deepEqual(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)), [0, 1, 2, 'refused', 4, 5]);
  });

  it('a save that hangs gives its place up after the slot time, and still settles when it ends', async () => {
    const line = saveLine(1, 60);
    let release!: () => void;
    const hung = line(() => new Promise<string>((resolve) => (release = () => resolve('late'))));
    const startedAt = Date.now();
    const next = await line(async () => Date.now() - startedAt);
    assert.ok(next >= 50 && next < 1_000, `the next save started ${next} ms later`);
    release();
    assert.equal(await hung, 'late');
  });
});
