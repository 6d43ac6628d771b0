/**
 * Issue #35, item 5: a problem document's `type` (`/docs/errors.md#not-found`, …) resolves. It used to be a path
 * the server answered 404 for. The server now serves the errors reference there, each code's section anchored by
 * the fragment the `type` carries.
 */
import assert from 'node:assert/strict';
import { REFUSAL_CODES } from '../../src/game/refusal.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

/** The page's line that an `id` anchors (the anchors open the line of the code's row). */
function anchoredLine(page: string, id: string): string | undefined {
  const at = page.indexOf(`id="${id}"`);
  if (at < 0) return undefined;
  const end = page.indexOf('\n', at);
  return page.slice(at, end < 0 ? undefined : end);
}

describe('problem documents link to their code\'s section of the errors reference', function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  const answers: Array<[string, () => Promise<Response>, string]> = [
    ['an unknown route', () => fetch(`${server.baseUrl}/nope`), 'NOT_FOUND'],
    ['a protected route without a token', () => fetch(`${server.baseUrl}/api/auth/me`), 'AUTH_REQUIRED'],
    ['a body that is not JSON', () => fetch(`${server.baseUrl}/api/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }), 'MALFORMED_JSON'],
  ];
  for (const [what, request, code] of answers) {
    it(`${what}: its type (${code}) resolves to a page whose anchor names the code`, async () => {
      const problem = await (await request()).json() as { type: string; code: string };
      assert.equal(problem.code, code);
      const target = new URL(problem.type, server.baseUrl);
      const page = await fetch(target);
      assert.equal(page.status, 200, `GET ${target.pathname}`);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      const line = anchoredLine(await page.text(), target.hash.slice(1));
      assert.ok(line, `an element with id="${target.hash.slice(1)}"`);
      assert.ok(line.includes(`<code>${code}</code>`), `the anchored line names ${code}: ${line}`);
    });
  }

  it('every code of the status table has its section, so no REST type points nowhere', async () => {
    const page = await (await fetch(`${server.baseUrl}/docs/errors.md`)).text();
    const missing = REFUSAL_CODES.filter((code) => !anchoredLine(page, code.toLowerCase().replaceAll('_', '-'))?.includes(`<code>${code}</code>`));
    assert.deepEqual(missing, [], 'codes without a row in docs/errors.md');
  });
});
