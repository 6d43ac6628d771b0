/** SerialInbox: one connection's tasks in the order given, at once when nothing is in line, no promise when sync. */
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import { SerialInbox } from '../src/serial-inbox.ts';

function inbox(errors: unknown[] = []): SerialInbox {
  return new SerialInbox((error) => errors.push(error));
}

describe('SerialInbox', () => {
  it('runs a task given while nothing is in line at once, and returns no promise when it finished there', () => {
    const box = inbox();
    const ran: boolean[] = [];
    const result = box.run((waited) => void ran.push(waited));
    assert.equal(result, undefined);
    assert.deepEqual(ran, [false]);
  });

  it('holds later tasks back until an awaiting task has finished, and runs them in the order given', async () => {
    const box = inbox();
    const order: string[] = [];
    let finishFirst!: () => void;
    const first = box.run(async () => {
      order.push('first begins');
      await new Promise<void>((resolve) => (finishFirst = resolve));
      order.push('first ends');
    });
    assert.ok(first instanceof Promise);
    const second = box.run((waited) => void order.push(`second (waited: ${waited})`));
    const third = box.run(async () => void order.push('third'));
    await turn();
    assert.deepEqual(order, ['first begins']);
    finishFirst();
    await Promise.all([first, second, third]);
    assert.deepEqual(order, ['first begins', 'first ends', 'second (waited: true)', 'third']);
    // Nothing is in line again: the next task runs at once.
    assert.equal(box.run(() => void order.push('fourth')), undefined);
    assert.equal(order.at(-1), 'fourth');
  });

  it('runs a task given from inside a task after that task, also when the outer one then awaits', async () => {
    const box = inbox();
    const order: string[] = [];
    box.run(() => {
      box.run(() => void order.push('inner of a sync task'));
      order.push('sync task');
    });
    assert.deepEqual(order, ['sync task']);
    await turn();
    assert.deepEqual(order, ['sync task', 'inner of a sync task']);

    order.length = 0;
    const outer = box.run(async () => {
      void box.run(() => void order.push('inner'));
      await turn();
      order.push('outer ends');
    });
    await outer;
    await turn();
    assert.deepEqual(order, ['outer ends', 'inner']);
  });

  it('hands a failing task to onError (thrown or rejected) and goes on with the next', async () => {
    const errors: unknown[] = [];
    const box = inbox(errors);
    const order: string[] = [];
    assert.equal(box.run(() => {
      throw new Error('sync failure');
    }), undefined);
    const rejected = box.run(async () => {
      await turn();
      throw new Error('async failure');
    });
    const after = box.run(() => void order.push('after'));
    await Promise.all([rejected, after]);
    assert.deepEqual(errors.map((error) => (error as Error).message), ['sync failure', 'async failure']);
    assert.deepEqual(order, ['after']);
    assert.equal(box.run(() => void order.push('idle again')), undefined);
  });
});
