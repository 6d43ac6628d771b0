import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { RELAYED_ADDRESS_HEADER, RELAY_SIGNATURE_HEADER, openUpstream, relayedAddress } from '../../src/cluster/ws-relay.ts';

const SECRET = 'relay-test-secret-0123456789abcdef';

function listening(server: WebSocketServer): Promise<number> {
  return new Promise((resolve) => server.once('listening', () => resolve((server.address() as { port: number }).port)));
}

/** Captures the headers a hand-over socket sends upstream, opening it to a local WebSocket server. */
async function headersSentBy(clientAddress: string, secret: string | undefined): Promise<IncomingMessage> {
  const upstream = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  const port = await listening(upstream);
  const received = new Promise<IncomingMessage>((resolve) => upstream.once('connection', (_ws, request) => resolve(request)));
  const client: WebSocket = openUpstream({ internalAddress: `127.0.0.1:${port}`, clientAddress, secret, token: 'the-token', origin: undefined });
  client.on('error', () => {});
  try {
    const request = await received;
    assert.equal(request.headers.authorization, 'Bearer the-token', 'the upstream authenticates the client by its token');
    return request;
  } finally {
    client.terminate();
    upstream.close();
  }
}

describe('relayed client addresses (scale-out)', () => {
  it('the hosting process believes the address a relay signed with the shared secret', async () => {
    const request = await headersSentBy('203.0.113.9', SECRET);
    assert.equal(relayedAddress(request, SECRET), '203.0.113.9');
  });

  it('a forged, altered or unsigned address is ignored', async () => {
    const signed = await headersSentBy('203.0.113.9', SECRET);
    assert.equal(relayedAddress(signed, 'another-secret-0123456789abcdef'), undefined, 'signed with another secret');
    const altered = { headers: { ...signed.headers, [RELAYED_ADDRESS_HEADER]: '198.51.100.1' } } as unknown as IncomingMessage;
    assert.equal(relayedAddress(altered, SECRET), undefined, 'address changed after signing');
    const unsigned = { headers: { [RELAYED_ADDRESS_HEADER]: '198.51.100.1' } } as unknown as IncomingMessage;
    assert.equal(relayedAddress(unsigned, SECRET), undefined);
    const noSecret = await headersSentBy('203.0.113.9', undefined);
    assert.equal(noSecret.headers[RELAY_SIGNATURE_HEADER], undefined, 'without a secret nothing is vouched for');
    assert.equal(relayedAddress(signed, undefined), undefined);
  });
});
