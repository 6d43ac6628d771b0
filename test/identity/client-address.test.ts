import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { clientAddress, normalizeAddress } from '../../src/limits/client-address.ts';

function request(remoteAddress: string, forwardedFor?: string): IncomingMessage {
  return { socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage;
}

describe('client address (TRUST_PROXY hops)', () => {
  it('without trusted hops is the peer address, whatever the headers say', () => {
    assert.equal(clientAddress(request('10.0.0.5', '1.2.3.4'), 0), '10.0.0.5');
    assert.equal(clientAddress(request('::ffff:10.0.0.5'), 0), '10.0.0.5');
    assert.equal(clientAddress(request('::1'), 0), '::1');
  });

  it('with N hops walks N entries from the right of X-Forwarded-For', () => {
    assert.equal(clientAddress(request('10.0.0.5', '203.0.113.9'), 1), '203.0.113.9');
    assert.equal(clientAddress(request('10.0.0.5', 'spoofed, 203.0.113.9'), 1), '203.0.113.9');
    assert.equal(clientAddress(request('10.0.0.5', 'spoofed, 203.0.113.9, 10.0.0.4'), 2), '203.0.113.9');
    assert.equal(clientAddress(request('10.0.0.5', '203.0.113.9'), 3), '203.0.113.9', 'fewer entries than hops: the leftmost');
    assert.equal(clientAddress(request('10.0.0.5'), 1), '10.0.0.5', 'no header: the peer');
  });
});

describe('client address and Express\' req.ip agree (same TRUST_PROXY, over real HTTP)', () => {
  const HEADERS: Array<string | string[] | undefined> = [
    undefined, '', '203.0.113.9', 'spoofed, 203.0.113.9', ' 198.51.100.1 ,203.0.113.9 , 10.0.0.4 ', '1.1.1.1,,2.2.2.2',
    ['7.7.7.7', '8.8.8.8, 9.9.9.9'], '::ffff:192.0.2.1, 2001:db8::1', ', , ', 'not-an-address, 203.0.113.9',
  ];

  for (const hops of [0, 1, 2, 3]) {
    it(`with TRUST_PROXY=${hops}`, async () => {
      const app = express();
      app.set('trust proxy', hops === 0 ? false : hops);
      app.get('/', (req, res) => {
        res.json({ express: normalizeAddress(req.ip), ours: clientAddress(req, hops) });
      });
      const server = app.listen(0, '127.0.0.1');
      await once(server, 'listening');
      try {
        const { port } = server.address() as AddressInfo;
        for (const header of HEADERS) {
          const headers = new Headers();
          for (const value of header === undefined ? [] : [header].flat()) headers.append('X-Forwarded-For', value);
          const body = await (await fetch(`http://127.0.0.1:${port}/`, { headers })).json() as { express: string; ours: string };
          assert.equal(body.ours, body.express, `X-Forwarded-For ${JSON.stringify(header)}`);
        }
      } finally {
        server.close();
      }
    });
  }
});
