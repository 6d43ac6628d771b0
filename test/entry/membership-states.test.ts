/** The membership state machine's table (rooms/entry/membership-states.ts): complete, closed, and enforced. */
import assert from 'node:assert/strict';
import {
  MEMBERSHIP_INPUTS, MEMBERSHIP_STATES, MEMBERSHIP_STEPS, MEMBERSHIP_TABLE, MembershipMachine, mayGo, outcomeOf,
} from '../../rooms/entry/membership-states.ts';

describe('world membership: the state machine', () => {
  it('every outcome leads to a state of the machine, and every state can close', () => {
    for (const state of MEMBERSHIP_STATES) {
      for (const outcome of Object.values(MEMBERSHIP_TABLE[state])) {
        if (outcome.kind === 'go') for (const to of outcome.to) assert.ok(MEMBERSHIP_STATES.includes(to), `${state}: ${to}`);
      }
      for (const to of MEMBERSHIP_STEPS[state] ?? []) assert.ok(MEMBERSHIP_STATES.includes(to));
      assert.ok(MEMBERSHIP_TABLE[state]['socket closed'], `${state} says what a closed socket does`);
    }
  });

  it('refuses what cannot be done in a state with the documented codes', () => {
    assert.deepEqual(outcomeOf('idle', 'world:leave'), { kind: 'refuse', code: 'NOT_IN_WORLD', message: 'Enter the world first (world:enter)' });
    assert.equal((outcomeOf('idle', 'game event') as { code: string }).code, 'NOT_IN_WORLD');
    assert.equal((outcomeOf('in-world', 'world:enter') as { code: string }).code, 'ALREADY_IN_WORLD');
    assert.equal(outcomeOf('relayed', 'game event').kind, 'forward');
    // A cell the table leaves empty cannot happen; asked anyway, it is refused, not carried out.
    assert.equal(outcomeOf('entering', 'world:leave').kind, 'refuse');
  });

  it('moves only along the table: an allowed path works, anything else throws', () => {
    const machine = new MembershipMachine();
    for (const to of ['entering', 'in-world', 'hopping', 'relayed'] as const) machine.go(to);
    assert.equal(machine.state, 'relayed');
    machine.go('entering');
    machine.go('idle');
    assert.throws(() => machine.go('hopping'), /cannot go from idle to hopping/);
    assert.throws(() => machine.go('leaving'), /cannot go from idle to leaving/);
    machine.go('closed');
    machine.go('in-world');
    assert.equal(machine.state, 'closed', 'closed is final');
  });

  it('mayGo agrees with the table for every pair', () => {
    for (const from of MEMBERSHIP_STATES) {
      for (const to of MEMBERSHIP_STATES) {
        const byInput = MEMBERSHIP_INPUTS.some((input) => {
          const outcome = MEMBERSHIP_TABLE[from][input];
          return outcome?.kind === 'go' && outcome.to.includes(to);
        });
        assert.equal(mayGo(from, to), byInput || (MEMBERSHIP_STEPS[from]?.includes(to) ?? false), `${from} → ${to}`);
      }
    }
  });
});
