/**
 * Issue #35, item 9: statements of the docs that were false, each read from the doc and checked against what the
 * server does, so that the doc and the server cannot drift apart again:
 * - docs/trading.md: what `joinOrCreate('trade')` answers (it said `FORBIDDEN`; an outsider gets 403
 *   `NOT_PARTICIPANT`);
 * - the REST and authentication limits as docs/auth.md, docs/errors.md and docs/loadtest.md state them, per mode
 *   (they said 10 a minute "in production" while development had the same limit);
 * - the README's admin path, and the commands it names, are run as written by
 *   test/identity/development-secret.test.ts; here, that the README names those very commands.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { PROJECT_ROOT } from './helpers/process.ts';
import { anonymousAccount } from './helpers/players.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { openTrade, traderPair } from './trade/support.ts';

const doc = (name: string) => fs.readFileSync(path.join(PROJECT_ROOT, name), 'utf8').replace(/\s+/g, ' ');
const number = (text: string) => Number(text.replaceAll(',', ''));

const PRODUCTION = loadConfig({
  NODE_ENV: 'production', DATABASE_URL: 'postgres://game@db/game', JWT_SECRET: 'x'.repeat(32), ADMIN_CODE: 'a',
  PUBLIC_IDP_APP_ID: 'i', IDP_APP_SECRET: 's', PUBLIC_API_URL: 'https://api.game.example',
  PUBLIC_WS_URL: 'wss://api.game.example/ws', PUBLIC_CDN_URL: 'https://cdn.game.example',
}, PROJECT_ROOT).config;
const DEVELOPMENT = loadConfig({}, PROJECT_ROOT).config;

describe('docs state what the server does', function () {
  this.timeout(60_000);

  describe('docs/trading.md: joinOrCreate(\'trade\') @db', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server?.close());

    it('answers as the doc says, for an outsider and for a participant', async () => {
      const statement = /`joinOrCreate\('trade'\)` is refused: (\d{3}) `([A-Z_]+)` for an account in no open trade .*?, and (\d{3}) `([A-Z_]+)` for a participant of one/
        .exec(doc('docs/trading.md'));
      assert.ok(statement, 'docs/trading.md says what joinOrCreate(\'trade\') answers, for an outsider and for a participant');
      const [, outsiderStatus, outsiderCode, participantStatus, participantCode] = statement;
      const [a, b] = await traderPair(server);
      const tradeId = await openTrade(a, b);
      const outsider = await anonymousAccount(server);
      for (const [who, token, status, code] of [
        ['an outsider', outsider.token, outsiderStatus, outsiderCode],
        ['a participant', a.account.token, participantStatus, participantCode],
      ] as const) {
        const response = await fetch(`${server.baseUrl}/matchmake/joinOrCreate/trade`, {
          method: 'POST', headers: { 'content-type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ tradeId }),
        });
        const body = await response.json() as { code: string };
        assert.deepEqual([response.status, body.code], [Number(status), code], who);
      }
    });
  });

  describe('the limits, per mode', () => {
    it('docs/auth.md\'s table of limits', () => {
      const text = doc('docs/auth.md');
      for (const [variable, field] of [['RATE_LIMIT_REST_PER_MINUTE', 'rateLimitRestPerMinute'], ['RATE_LIMIT_AUTH_PER_MINUTE', 'rateLimitAuthPerMinute']] as const) {
        const row = new RegExp(`\`${variable}\` = ([\\d,]+) / minute in production \\(([\\d,]+) in development\\)`).exec(text);
        assert.ok(row, `auth.md states ${variable} per mode`);
        assert.deepEqual([number(row[1]), number(row[2])], [PRODUCTION[field], DEVELOPMENT[field]], variable);
      }
    });

    it('docs/errors.md\'s AUTH_RATE_LIMITED and RATE_LIMITED rows', () => {
      const text = doc('docs/errors.md');
      for (const [code, field] of [['AUTH_RATE_LIMITED', 'rateLimitAuthPerMinute'], ['RATE_LIMITED', 'rateLimitRestPerMinute']] as const) {
        const row = new RegExp(`\\| \`${code}\` \\| 429 \\| [^|]*?\\(([\\d,]+) in production, ([\\d,]+) in development`).exec(text);
        assert.ok(row, `errors.md states the limit behind ${code} per mode`);
        assert.deepEqual([number(row[1]), number(row[2])], [PRODUCTION[field], DEVELOPMENT[field]], code);
      }
    });

    it('docs/loadtest.md\'s statement of what a bot spends', () => {
      const row = /([\d,]+) and ([\d,]+) a minute in production, ([\d,]+) each in development/.exec(doc('docs/loadtest.md'));
      assert.ok(row, 'loadtest.md states the limits per mode');
      assert.deepEqual(row.slice(1).map(number),
        [PRODUCTION.rateLimitAuthPerMinute, PRODUCTION.rateLimitRestPerMinute, DEVELOPMENT.rateLimitAuthPerMinute]);
      assert.equal(DEVELOPMENT.rateLimitRestPerMinute, DEVELOPMENT.rateLimitAuthPerMinute, '"each"');
    });
  });

  it('the README\'s admin path names the commands test/identity/development-secret.test.ts runs as written', () => {
    const readme = doc('README.md');
    for (const step of ['`npm run admin -- grant <accountId>`', 'refresh the account\'s token (`POST /api/auth/refresh`)', '`npm run admin -- create`']) {
      assert.ok(readme.includes(step), step);
    }
    const test = fs.readFileSync(path.join(PROJECT_ROOT, 'test/identity/development-secret.test.ts'), 'utf8');
    for (const call of ["npmAdmin('grant', guest.accountId)", '/api/auth/refresh', "npmAdmin('create')"]) assert.ok(test.includes(call), call);
  });
});
