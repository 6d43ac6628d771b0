/** SlicedQueue: tasks in the order given, run in later turns, in slices that stop once their time is up. */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { laneInOrder, SlicedQueue } from '../src/sliced-queue.ts';

/** A queue on a clock the test moves, whose next slice runs when the test says. */
function manualQueue(checkEvery = 1) {
  let clock = 0;
  const pending: Array<() => void> = [];
  const errors: unknown[] = [];
  const queue = new SlicedQueue({
    sliceMs: 4, checkEvery, onError: (error) => errors.push(error), now: () => clock, defer: (next) => void pending.push(next),
  });
  return {
    queue, errors,
    advance: (ms: number) => (clock += ms),
    /** Runs the slice scheduled last; false when none was. */
    runSlice: () => {
      const next = pending.shift();
      next?.();
      return next !== undefined;
    },
    scheduled: () => pending.length,
  };
}

describe('SlicedQueue', () => {
  it('runs nothing in the turn a task is given, then every task in the order given', () => {
    const { queue, runSlice, scheduled } = manualQueue();
    const order: number[] = [];
    for (let i = 0; i < 5; i++) queue.push(() => void order.push(i));
    assert.deepEqual(order, []);
    assert.equal(scheduled(), 1, 'one slice is scheduled however many tasks wait');
    assert.equal(queue.length, 5);
    assert.ok(runSlice());
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(queue.length, 0);
    assert.equal(scheduled(), 0);
  });

  it('runs urgent tasks (players in a world) before the others given earlier, each lane in its order', () => {
    const { queue, runSlice, advance } = manualQueue();
    const order: string[] = [];
    for (let i = 0; i < 6; i++) queue.push(() => { order.push(`login ${i}`); advance(3); });
    for (let i = 0; i < 2; i++) queue.push(() => { order.push(`move ${i}`); advance(2); }, 'urgent');
    runSlice();
    // The moves go first; once the slice's time (4 ms) is up, it still runs up to 4 logins (4 × checkEvery).
    assert.deepEqual(order, ['move 0', 'move 1', 'login 0', 'login 1', 'login 2', 'login 3']);
    queue.push(() => { order.push('move 2'); advance(2); }, 'urgent');
    runSlice();
    assert.deepEqual(order.slice(6), ['move 2', 'login 4', 'login 5']);
    assert.equal(queue.length, 0);
  });

  it('answers an authenticated login (entries) before logins still authenticating, and within the same share', () => {
    const { queue, runSlice, advance } = manualQueue();
    const order: string[] = [];
    for (let i = 0; i < 4; i++) queue.push(() => { order.push(`auth ${i}`); advance(1); });
    for (let i = 0; i < 3; i++) queue.push(() => { order.push(`enter ${i}`); advance(1); }, 'entries');
    for (let i = 0; i < 5; i++) queue.push(() => { order.push(`move ${i}`); advance(1); }, 'urgent');
    runSlice();
    // 5 moves fill the slice (4 ms); the share of 4 then goes to the entries first.
    assert.deepEqual(order, ['move 0', 'move 1', 'move 2', 'move 3', 'move 4', 'enter 0', 'enter 1', 'enter 2', 'auth 0']);
    runSlice();
    assert.deepEqual(order.slice(9), ['auth 1', 'auth 2', 'auth 3']);
  });

  it('does not starve the others under a steady stream of urgent tasks: each slice runs some of them', () => {
    const { queue, runSlice, advance } = manualQueue(2);
    const order: string[] = [];
    for (let i = 0; i < 10; i++) queue.push(() => void order.push(`login ${i}`));
    // Urgent work that alone would fill every slice.
    for (let i = 0; i < 10; i++) queue.push(() => { order.push(`move ${i}`); advance(2); }, 'urgent');
    runSlice();
    // Time is read every 2 tasks: after move 1 (4 ms) it is not over, after move 3 (8 ms) it is; then up to 4 × 2 logins.
    assert.deepEqual(order, ['move 0', 'move 1', 'move 2', 'move 3', ...[0, 1, 2, 3, 4, 5, 6, 7].map((i) => `login ${i}`)]);
    runSlice();
    assert.deepEqual(order.slice(12), ['move 4', 'move 5', 'move 6', 'move 7', 'login 8', 'login 9']);
  });

  it('stops a slice once its time is up and goes on in the next, keeping the order', () => {
    const { queue, runSlice, scheduled, advance } = manualQueue();
    const order: number[] = [];
    // Each task takes 3 ms: a 4 ms slice runs two (the clock is read before each task but the first).
    for (let i = 0; i < 5; i++) queue.push(() => { order.push(i); advance(3); });
    runSlice();
    assert.deepEqual(order, [0, 1]);
    assert.equal(scheduled(), 1);
    runSlice();
    assert.deepEqual(order, [0, 1, 2, 3]);
    runSlice();
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
    assert.equal(scheduled(), 0);
  });

  it('tells onWait how long each task waited, from its push to its start', () => {
    let clock = 0;
    const pending: Array<() => void> = [];
    const waits: number[] = [];
    const queue = new SlicedQueue({
      sliceMs: 4, checkEvery: 1, onError: () => {}, now: () => clock, defer: (next) => void pending.push(next), onWait: (ms) => waits.push(ms),
    });
    queue.push(() => (clock += 3));
    clock = 2;
    queue.push(() => (clock += 3));
    clock = 10;
    queue.push(() => {});
    pending.shift()!();
    // Given at 0, 2 and 10; the first starts at 10, the second after the first's 3 ms, the slice ends at 16 > 10 + 4.
    assert.deepEqual(waits, [10, 11]);
    pending.shift()!();
    assert.deepEqual(waits, [10, 11, 6]);
  });

  it('reads the clock only every checkEvery tasks', () => {
    const { queue, runSlice, advance } = manualQueue(3);
    const order: number[] = [];
    for (let i = 0; i < 7; i++) queue.push(() => { order.push(i); advance(10); });
    runSlice();
    assert.deepEqual(order, [0, 1, 2], 'the first check comes after three tasks, however long they took');
    runSlice();
    assert.deepEqual(order, [0, 1, 2, 3, 4, 5]);
  });

  it('reports a task that throws and runs the tasks after it', () => {
    const { queue, runSlice, errors } = manualQueue();
    const order: string[] = [];
    queue.push(() => void order.push('a'));
    queue.push(() => { throw new Error('boom'); });
    queue.push(() => void order.push('c'));
    runSlice();
    assert.deepEqual(order, ['a', 'c']);
    assert.equal((errors[0] as Error).message, 'boom');
  });

  it('runs a task given by a running task after the ones already waiting', () => {
    const { queue, runSlice, scheduled } = manualQueue();
    const order: string[] = [];
    queue.push(() => { order.push('first'); queue.push(() => void order.push('given by first')); });
    queue.push(() => void order.push('second'));
    runSlice();
    assert.deepEqual(order, ['first', 'second', 'given by first']);
    assert.equal(scheduled(), 0);
    queue.push(() => void order.push('later'));
    assert.equal(scheduled(), 1, 'an emptied queue schedules a slice again');
  });

  it('keeps its storage bounded under a stream that never lets it empty, and loses nothing', () => {
    const { queue, runSlice, advance } = manualQueue();
    const ran: number[] = [];
    let given = 0;
    // Every slice runs two tasks (3 ms each in a 4 ms slice) while three more arrive: the queue never empties.
    const give = (count: number) => {
      for (let i = 0; i < count; i++) {
        const n = given++;
        queue.push(() => { ran.push(n); advance(3); });
      }
    };
    give(3);
    for (let round = 0; round < 3_000; round++) {
      runSlice();
      give(3);
      assert.ok(queue.slots <= queue.length + 1_024, `round ${round}: ${queue.slots} slots for ${queue.length} waiting`);
    }
    while (runSlice());
    assert.equal(ran.length, given);
    assert.ok(ran.every((n, i) => n === i), 'every task ran once, in the order given');
  });

  it('lets a due timer run between the slices of a burst on the real event loop', async () => {
    const queue = new SlicedQueue({ sliceMs: 4, checkEvery: 1, onError: (error) => assert.fail(String(error)) });
    const order: string[] = [];
    const busy = (ms: number) => { const until = performance.now() + ms; while (performance.now() < until); };
    setTimeout(() => order.push('timer'), 0);
    // 40 tasks of 1 ms: run in one go they would hold the timer back for 40 ms.
    for (let i = 0; i < 40; i++) queue.push(() => { busy(1); order.push('task'); });
    await sleep(200);
    assert.equal(order.filter((entry) => entry === 'task').length, 40);
    const timerAt = order.indexOf('timer');
    assert.ok(timerAt >= 0 && timerAt < 10, `the timer ran after ${timerAt} tasks`);
  });

  it('keeps a source\'s tasks in order across lanes: the next joins the latest lane its own tasks still wait in', () => {
    // A socket that entered its world while its world:enter waited in `entries` sends its first move there too.
    assert.equal(laneInOrder('urgent', 'entries'), 'entries');
    assert.equal(laneInOrder('urgent', 'others'), 'others');
    assert.equal(laneInOrder('entries', 'others'), 'others');
    // Nothing of its own waits, or only in an earlier lane: the lane it wants.
    assert.equal(laneInOrder('urgent', undefined), 'urgent');
    assert.equal(laneInOrder('entries', undefined), 'entries');
    assert.equal(laneInOrder('others', 'entries'), 'others');
    assert.equal(laneInOrder('entries', 'urgent'), 'entries');
  });
});
