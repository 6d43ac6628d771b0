/**
 * Long-form fuzzing against an in-process server on loopback: `npm run fuzz -- --frames 5000 --requests 2000 --seed 7`.
 * Ends by itself; exits 1 when any check fails.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/logger.ts';
import { startServer } from '../src/server.ts';
import { runFuzz } from './lib/fuzz-run.ts';

const { values } = parseArgs({ options: { frames: { type: 'string', default: '3000' }, requests: { type: 'string', default: '1000' }, seed: { type: 'string' } } });
const { config } = loadConfig({ NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', PGLITE_DATA_DIR: 'memory://', LOG_LEVEL: 'error', JWT_SECRET: 'fuzz-secret', DATABASE_URL: process.env.DATABASE_URL });
const server = await startServer({ config, logger: createLogger(config) });
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
console.log(`fuzzing with seed ${seed}`);
const report = await runFuzz({
  baseUrl: `http://127.0.0.1:${server.port}`,
  wsUrl: `ws://127.0.0.1:${server.port}`,
  db: server.context.db,
  signToken: (accountId) => server.context.auth.tokens.sign({ accountId, roles: ['player'], scope: 'player' }).token,
}, { frames: Number(values.frames), requests: Number(values.requests), seed });
await server.close();
const conserved = JSON.stringify(report.totalsAfter) === JSON.stringify(report.totalsBefore);
console.log({ ...report, conserved });
const failed = report.serverErrors.length > 0 || report.internalErrors > 0 || report.unexpectedCloses.length > 0 || !conserved;
process.exit(failed ? 1 : 0);
