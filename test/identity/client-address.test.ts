import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { clientAddress } from '../../src/http/limits/client-address.ts';

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
