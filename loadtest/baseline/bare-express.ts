/**
 * The REST baseline: a bare Express 5 app answering the same JSON body as the measured route, nothing else.
 * Run: node loadtest/baseline/bare-express.ts <port> <file-with-body.json>
 */
import fs from 'node:fs';
import express from 'express';

const port = Number(process.argv[2] ?? 5700);
const body = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const app = express();
app.get('/health', (_req, res) => { res.json({ status: 'ok' }); });
app.get('/bare', (_req, res) => { res.json(body); });
app.listen(port, '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
