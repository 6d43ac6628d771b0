import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import {
  HANDOVER_TICKET_HEADER, HandoverTickets, RELAYED_ADDRESS_HEADER, RELAY_SIGNATURE_HEADER, openUpstream, relayedAddress, signHandoverTicket, type HandoverTicket,
} from '../../src/cluster/ws-relay.ts';

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

describe('hand-over tickets (scale-out, issue #34)', () => {
  const ticket = (overrides: Partial<HandoverTicket> = {}): HandoverTicket => ({
    address: '203.0.113.9', accountId: 'account-1', connection: 'conn-1', to: 'process-b',
    expiresAt: 1_000_000 + 10_000, nonce: 'nonce-1', admitted: false, ...overrides,
  });
  const verifier = () => new HandoverTickets(SECRET, () => 'process-b', () => 1_000_000);

  it('a hand-over socket carries a signed ticket binding the account, the connection and the target process', async () => {
    const upstream = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    const port = await listening(upstream);
    const received = new Promise<IncomingMessage>((resolve) => upstream.once('connection', (_ws, request) => resolve(request)));
    const client = openUpstream({
      internalAddress: `127.0.0.1:${port}`, clientAddress: '203.0.113.9', secret: SECRET, token: 't', origin: undefined,
      ticket: { accountId: 'account-1', connection: 'conn-1', to: 'process-b', admitted: true },
    });
    client.on('error', () => {});
    const request = await received;
    client.terminate();
    upstream.close();
    const verified = new HandoverTickets(SECRET, () => 'process-b').verify(String(request.headers[HANDOVER_TICKET_HEADER]));
    assert.deepEqual(verified && [verified.address, verified.accountId, verified.connection, verified.to, verified.admitted],
      ['203.0.113.9', 'account-1', 'conn-1', 'process-b', true]);
  });

  it('is believed once: a replay, another process, an expired, altered or foreign-signed ticket is refused', () => {
    const tickets = verifier();
    const header = signHandoverTicket(SECRET, ticket());
    assert.ok(tickets.verify(header), 'the first presentation');
    assert.equal(tickets.verify(header), undefined, 'a replay');
    assert.equal(verifier().verify(signHandoverTicket(SECRET, ticket({ to: 'process-c' }))), undefined, 'for another process');
    assert.equal(verifier().verify(signHandoverTicket(SECRET, ticket({ expiresAt: 999_999 }))), undefined, 'expired');
    assert.equal(verifier().verify(signHandoverTicket(SECRET, ticket({ expiresAt: 1_000_000 + 600_000 }))), undefined, 'an expiry too far ahead');
    assert.equal(verifier().verify(signHandoverTicket('another-secret-0123456789abcdef', ticket())), undefined, 'signed with another secret');
    const [payload, signature] = header.split('.');
    const altered = Buffer.from(JSON.stringify({ ...ticket(), admitted: true })).toString('base64url');
    assert.ok(payload !== altered);
    assert.equal(verifier().verify(`${altered}.${signature}`), undefined, 'altered after signing');
    assert.equal(verifier().verify('garbage'), undefined);
  });
});
