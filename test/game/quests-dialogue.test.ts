import assert from 'node:assert/strict';
import { chooseOption, continueDialogue, startDialogue, type DialogueContext, type DialogueStep } from '../../src/game/dialogue.ts';
import {
  advanceQuest,
  checkQuestRequirements,
  finalStage,
  questPoints,
  questStage,
  questStatus,
  startQuest,
  type QuestLog,
} from '../../src/game/quests.ts';
import { startingLevels, type Levels } from '../../src/game/skills.ts';
import type { GameData } from '../../src/manifests/game-data.ts';
import type { Dialogue } from '../../src/manifests/schemas/npcs.ts';
import { bundledData } from './support/bundled-data.ts';
import { expectCode, expectOk } from './support/results.ts';

describe('quests', () => {
  let data: GameData;
  before(async () => {
    data = await bundledData();
  });
  const quest = (id: string) => data.questsById.get(id)!;
  const miner: Levels = { ...startingLevels(), mining: 5 };

  it('runs not started → stages → completed, returning the rewards once', () => {
    const locket = quest('lost_locket');
    let log: QuestLog = {};
    assert.equal(questStatus(log, locket), 'not-started');
    const started = expectOk(startQuest(log, locket, startingLevels(), data.questsById));
    assert.deepEqual([started.stage, started.completed, started.rewards], [1, false, null]);
    log = started.log;
    assert.equal(questStatus(log, locket), 'in-progress');
    log = expectOk(advanceQuest(log, locket, 2)).log;
    const done = expectOk(advanceQuest(log, locket, 3));
    assert.equal(done.completed, true);
    assert.deepEqual(done.rewards, {
      questPoints: 1,
      items: [{ itemId: 'coins', quantity: 250 }, { itemId: 'fishing_bait', quantity: 50 }],
      xp: [{ skill: 'fishing', amount: 400 }, { skill: 'cooking', amount: 200 }],
    });
    assert.equal(questStatus(done.log, locket), 'completed');
    assert.equal(questStage(done.log, 'lost_locket'), finalStage(locket));
    assert.equal(questPoints(done.log, data.questsById), 1);
    expectCode(advanceQuest(done.log, locket, 4), 'ALREADY_COMPLETED');
    expectCode(startQuest(done.log, locket, startingLevels(), data.questsById), 'ALREADY_COMPLETED');
  });

  it('refuses skipped or repeated stages and quests that were not started', () => {
    const locket = quest('lost_locket');
    expectCode(advanceQuest({}, locket, 1), 'NOT_STARTED');
    expectCode(advanceQuest({ lost_locket: 1 }, locket, 3), 'WRONG_STAGE');
    expectCode(advanceQuest({ lost_locket: 2 }, locket, 2), 'WRONG_STAGE');
    expectCode(startQuest({ lost_locket: 1 }, locket, startingLevels(), data.questsById), 'ALREADY_STARTED');
  });

  it('checks skill, quest and quest-point requirements', () => {
    const forge = quest('cold_forge');
    expectCode(startQuest({}, forge, startingLevels(), data.questsById), 'REQUIREMENTS_NOT_MET');
    assert.ok(startQuest({}, forge, miner, data.questsById).ok);
    const barrow = quest('rites_of_the_barrow');
    const result = checkQuestRequirements(barrow, startingLevels(), {}, data.questsById);
    expectCode(result, 'REQUIREMENTS_NOT_MET');
    assert.match(!result.ok ? result.message : '', /prayer 10 \(you have 1\).*The Lost Locket.*1 quest points \(you have 0\)/);
    assert.ok(checkQuestRequirements(barrow, { ...startingLevels(), prayer: 10 }, { lost_locket: 3 }, data.questsById).ok);
  });
});

describe('dialogue', () => {
  let data: GameData;
  before(async () => {
    data = await bundledData();
  });
  const dialogue = (id: string): Dialogue => data.dialoguesById.get(id)!;
  const ctx = (log: QuestLog = {}, levels: Levels = startingLevels()): DialogueContext => ({ log, quests: data.questsById, levels });
  const texts = (step: DialogueStep) => step.options.map((o) => o.text);

  it('starts at the start node and follows options to an action and the end', () => {
    const bank = dialogue('osric_banking');
    const greet = expectOk(startDialogue(bank, ctx()));
    assert.equal(greet.node?.id, 'greet');
    assert.deepEqual(texts(greet), ["I'd like to see my bank.", 'What is this place?', 'Nothing, thanks.']);
    const open = expectOk(chooseOption(bank, greet.session!, 0, ctx()));
    assert.deepEqual(open.action, { type: 'openBank' });
    assert.deepEqual(open.options, []);
    const end = expectOk(continueDialogue(bank, open.session!, ctx()));
    assert.deepEqual(end, { session: null, node: null, options: [], action: null });
  });

  it('loops back through `next` and ends on an `end` option; options can be chosen by target id', () => {
    const bank = dialogue('osric_banking');
    const greet = expectOk(startDialogue(bank, ctx()));
    const about = expectOk(chooseOption(bank, greet.session!, 'about', ctx()));
    assert.equal(about.node?.id, 'about');
    const back = expectOk(continueDialogue(bank, about.session!, ctx()));
    assert.equal(back.node?.id, 'greet');
    assert.equal(expectOk(chooseOption(bank, back.session!, 2, ctx())).session, null);
  });

  it('refuses bad choices', () => {
    const bank = dialogue('osric_banking');
    const greet = expectOk(startDialogue(bank, ctx()));
    expectCode(chooseOption(bank, greet.session!, 3, ctx()), 'INVALID_OPTION');
    expectCode(chooseOption(bank, greet.session!, -1, ctx()), 'INVALID_OPTION');
    expectCode(chooseOption(bank, greet.session!, 1.5, ctx()), 'INVALID_OPTION');
    expectCode(chooseOption(bank, greet.session!, 'nowhere', ctx()), 'INVALID_OPTION');
    expectCode(continueDialogue(bank, greet.session!, ctx()), 'NO_NEXT');
    const open = expectOk(chooseOption(bank, greet.session!, 0, ctx()));
    expectCode(chooseOption(bank, open.session!, 0, ctx()), 'NO_OPTIONS');
    expectCode(chooseOption(bank, { dialogueId: bank.id, nodeId: 'gone' }, 0, ctx()), 'UNKNOWN_NODE');
  });

  it('gates quest options by quest stage and requirements', () => {
    const tamsin = dialogue('tamsin_locket');
    // Not started: "I found your locket" (advance to 3) is hidden.
    const fresh = expectOk(startDialogue(tamsin, ctx()));
    assert.deepEqual(texts(fresh), ['Your locket?', 'Any fishing tips?', 'Goodbye.']);
    expectCode(chooseOption(tamsin, fresh.session!, 2, ctx()), 'OPTION_UNAVAILABLE');
    const locket = expectOk(chooseOption(tamsin, fresh.session!, 0, ctx()));
    assert.deepEqual(texts(locket), ["I'll get it back.", 'Sorry to hear that.']);
    const accepted = expectOk(chooseOption(tamsin, locket.session!, 0, ctx()));
    assert.deepEqual(accepted.action, { type: 'startQuest', questId: 'lost_locket' });
    // Started (stage 1): cannot accept again; the return option waits for stage 2.
    const started = expectOk(startDialogue(tamsin, ctx({ lost_locket: 1 })));
    assert.deepEqual(texts(started), ['Your locket?', 'Any fishing tips?', 'Goodbye.']);
    assert.deepEqual(texts(expectOk(chooseOption(tamsin, started.session!, 0, ctx({ lost_locket: 1 })))), ['Sorry to hear that.']);
    const found = expectOk(startDialogue(tamsin, ctx({ lost_locket: 2 })));
    assert.ok(texts(found).includes('I found your locket.'));
    const returned = expectOk(chooseOption(tamsin, found.session!, 'returned', ctx({ lost_locket: 2 })));
    assert.deepEqual(returned.action, { type: 'advanceQuest', questId: 'lost_locket', stage: 3 });
    // Dunstan's quest needs mining 5 to be offered.
    const dunstan = dialogue('dunstan_smithy');
    const troubled = (levels: Levels) => {
      const greet = expectOk(startDialogue(dunstan, ctx({}, levels)));
      return texts(expectOk(chooseOption(dunstan, greet.session!, 1, ctx({}, levels))));
    };
    assert.deepEqual(troubled(startingLevels()), ['Not now.']);
    assert.deepEqual(troubled({ ...startingLevels(), mining: 5 }), ["I'll do it.", 'Not now.']);
  });

  it('drives a quest from dialogue actions end to end', () => {
    const tamsin = dialogue('tamsin_locket');
    const locketQuest = data.questsById.get('lost_locket')!;
    let log: QuestLog = {};
    let step = expectOk(startDialogue(tamsin, ctx(log)));
    step = expectOk(chooseOption(tamsin, step.session!, 'locket', ctx(log)));
    step = expectOk(chooseOption(tamsin, step.session!, 'accept', ctx(log)));
    assert.equal(step.action?.type, 'startQuest');
    log = expectOk(startQuest(log, locketQuest, startingLevels(), data.questsById)).log;
    // Recovering the locket (a game event outside dialogue) advances to stage 2.
    log = expectOk(advanceQuest(log, locketQuest, 2)).log;
    step = expectOk(startDialogue(tamsin, ctx(log)));
    step = expectOk(chooseOption(tamsin, step.session!, 'returned', ctx(log)));
    assert.ok(step.action?.type === 'advanceQuest');
    const done = expectOk(advanceQuest(log, locketQuest, step.action.stage));
    assert.equal(done.completed, true);
  });
});
