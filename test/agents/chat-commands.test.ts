/**
 * The built-in commands of a message to an agent, parsed without a database or a server (src/agents/chat-commands.ts):
 * each command, the names it resolves, and each refusal the reply carries.
 */
import assert from 'node:assert/strict';
import { checkGoal, helpReply, needsCurrentLevel, parseAgentCommand, type CommandNames, type GoalDraft } from '../../src/agents/chat-commands.ts';

const names: CommandNames = {
  areasById: new Map([
    ['greystone_quarry', { id: 'greystone_quarry', name: 'Greystone Quarry' }],
    ['brackenford_bank', { id: 'brackenford_bank', name: 'Brackenford Bank' }],
  ]),
  npcsById: new Map([
    ['chicken', { id: 'chicken', name: 'Chicken' }],
    ['giant_rat', { id: 'giant_rat', name: 'Giant rat' }],
  ]),
};

function draftOf(text: string): GoalDraft {
  const command = parseAgentCommand(text, names);
  assert.equal(command.kind, 'goal', text);
  return (command as { draft: GoalDraft }).draft;
}

describe('agent chat commands (pure)', () => {
  it('say and slash commands are chat lines', () => {
    assert.deepEqual(parseAgentCommand('say Hello there', names), { kind: 'say', message: 'Hello there' });
    assert.deepEqual(parseAgentCommand('  SAY multi\nline ', names), { kind: 'say', message: 'multi\nline' });
    assert.deepEqual(parseAgentCommand('/players', names), { kind: 'chat-command', line: '/players' });
    assert.deepEqual(parseAgentCommand(' /tell Bob hi ', names), { kind: 'chat-command', line: '/tell Bob hi' });
  });

  it('stop / pause and resume / continue', () => {
    for (const text of ['stop', 'Pause', ' STOP ']) assert.deepEqual(parseAgentCommand(text, names), { kind: 'stop' }, text);
    for (const text of ['resume', 'Continue']) assert.deepEqual(parseAgentCommand(text, names), { kind: 'resume' }, text);
    assert.deepEqual(parseAgentCommand('stop now', names), { kind: 'help' });
  });

  it('travel resolves an area by id or by name', () => {
    const quarry = { kind: 'travel', areaId: 'greystone_quarry', areaName: 'Greystone Quarry' };
    for (const text of ['travel greystone_quarry', 'go to Greystone Quarry', 'goto greystone-quarry', 'walk to  GREYSTONE quarry ']) {
      assert.deepEqual(parseAgentCommand(text, names), quarry, text);
    }
  });

  it('refuses travel to an area it does not know, naming it as typed', () => {
    assert.deepEqual(parseAgentCommand('travel to Atlantis ', names), { kind: 'refused', reply: 'no area called "Atlantis"' });
    assert.deepEqual(parseAgentCommand('travel greystone_quarry', null), { kind: 'refused', reply: 'no area called "greystone_quarry"' });
  });

  it('bank, train and kill are goal drafts', () => {
    for (const text of ['bank', 'bank inventory', 'Bank the inventory']) assert.deepEqual(draftOf(text), { type: 'bank_inventory' }, text);
    assert.deepEqual(draftOf('train Woodcutting'), { type: 'train_skill', skill: 'woodcutting', targetLevel: undefined });
    assert.deepEqual(draftOf('train mining 10'), { type: 'train_skill', skill: 'mining', targetLevel: 10 });
    assert.deepEqual(draftOf('train fishing to 7'), { type: 'train_skill', skill: 'fishing', targetLevel: 7 });
    assert.deepEqual(draftOf('kill chicken'), { type: 'kill', npcId: 'chicken', count: 1 });
    assert.deepEqual(draftOf('kill 3 chickens'), { type: 'kill', npcId: 'chicken', count: 3 });
    assert.deepEqual(draftOf('kill 2 Giant rats'), { type: 'kill', npcId: 'giant_rat', count: 2 });
    // An NPC it does not know is left to the goal check (NPC_NOT_FOUND when the goal is set).
    assert.deepEqual(draftOf('kill dragon'), { type: 'kill', npcId: 'dragon', count: 1 });
  });

  it('anything else is no command: the reply lists them (and says when goals are paused)', () => {
    for (const text of ['hello', 'train', 'bank everything', 'travel', 'sayhello']) assert.deepEqual(parseAgentCommand(text, names), { kind: 'help' }, text);
    assert.match(helpReply(false), /^commands: say <text>, \/<command>, travel <area>, train <skill> \[level\], kill <npc> \[count\], bank, stop, resume$/);
    assert.match(helpReply(true), /^goals are paused\. commands: /);
  });

  it('checks a draft as a goal; train without a level aims one level up', () => {
    const train = draftOf('train woodcutting');
    assert.equal(needsCurrentLevel(train), true);
    assert.equal(needsCurrentLevel(draftOf('train woodcutting 5')), false);
    assert.equal(needsCurrentLevel(draftOf('bank')), false);
    assert.deepEqual(checkGoal(train, 9), { ok: true, spec: { type: 'train_skill', skill: 'woodcutting', targetLevel: 10 } });
    assert.deepEqual(checkGoal(train), { ok: true, spec: { type: 'train_skill', skill: 'woodcutting', targetLevel: 2 } });
    assert.deepEqual(checkGoal(draftOf('train mining 10'), 40), { ok: true, spec: { type: 'train_skill', skill: 'mining', targetLevel: 10 } });
    assert.deepEqual(checkGoal(draftOf('kill 3 chickens')), { ok: true, spec: { type: 'kill', npcId: 'chicken', count: 3 } });
    assert.deepEqual(checkGoal(draftOf('bank')), { ok: true, spec: { type: 'bank_inventory' } });
  });

  it('refuses a draft that is no goal, with the first reason', () => {
    const refusals = ['train juggling', 'train mining 1', 'train mining 500', 'kill 0 chickens', 'kill 5000 chickens', 'kill big rat!'];
    for (const text of refusals) {
      const checked = checkGoal(draftOf(text), 5);
      assert.equal(checked.ok, false, text);
      assert.match((checked as { reply: string }).reply, /^not a goal: .+/, text);
    }
    const badId = checkGoal(draftOf('kill big rat!'));
    assert.deepEqual(badId, { ok: false, reply: 'not a goal: must be a manifest id (a-z, 0-9, _ or -)' });
  });
});
