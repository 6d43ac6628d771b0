import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { apiOf } from '../../src/http/routes/api.ts';
import { json } from '../helpers/http.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('OpenAPI document @db', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });

  after(async () => {
    await server?.close();
  });

  it('is served without a token and validates as OpenAPI 3.1', async () => {
    const response = await fetch(`${server.baseUrl}/api/openapi.json`);
    assert.equal(response.status, 200);
    const document = await json(response);
    assert.equal(document.openapi, '3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  });

  it('lists exactly the routes the server mounts', async () => {
    const document = await json(await fetch(`${server.baseUrl}/api/openapi.json`));
    const documented = new Set<string>();
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const mounted = new Set(apiOf(server.context)!.mountedRoutes().map((r) => `${r.method.toUpperCase()} ${r.path}`));
    assert.ok(mounted.size > 30, `found only ${mounted.size} mounted routes`);
    // /manifests/* is served by a prefix middleware (router.use), which has no route layer to list.
    const missingFromDocument = [...mounted].filter((route) => !documented.has(route));
    const notMounted = [...documented].filter((route) => !mounted.has(route) && route !== 'GET /manifests/{file}');
    assert.deepEqual(missingFromDocument, [], 'mounted routes missing from the document');
    assert.deepEqual(notMounted, [], 'documented routes the server does not mount');
  });

  it('documents the problem responses of every operation and the goal shapes', async () => {
    const document = await json(await fetch(`${server.baseUrl}/api/openapi.json`));
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, unknown>; security: unknown[] }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        assert.ok(operation.responses['429'], `${method} ${path} documents 429`);
        if (operation.security.length > 0) {
          assert.ok(operation.responses['401'] && operation.responses['403'], `${method} ${path} documents 401 and 403`);
        }
      }
    }
    for (const name of ['Goal', 'AvailableGoal', 'GoalControlResponse', 'Problem']) assert.ok(document.components.schemas[name], name);
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    assert.ok(refs.length > 0);
    for (const ref of refs) {
      const target = ref.slice(8, -1);
      assert.match(target, /^#\/components\/schemas\//);
      assert.ok(document.components.schemas[target.split('/').pop()!], `${target} resolves`);
    }
    const setGoal = document.paths['/api/agents/{agentId}/goal'].post;
    assert.ok(setGoal.requestBody.content['application/json'].schema);
    assert.ok(setGoal.responses['404'] && setGoal.responses['409'] && setGoal.responses['400']);
  });

  it('answers 400 for unknown query parameters', async () => {
    const response = await fetch(`${server.baseUrl}/api/openapi.json?x=1`);
    assert.equal(response.status, 400);
    assert.equal((await json(response)).code, 'VALIDATION_FAILED');
  });
});
