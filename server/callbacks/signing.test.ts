import { describe, expect, it } from 'vitest';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { newCallbackSecret, signedHeaders, verifySignature } from './signing.js';

const body = JSON.stringify({ event: 'call.ended', data: { call_id: '42', duration: '61' } });

describe('newCallbackSecret', () => {
  it('is whsec_ and 32 random bytes in base64', () => {
    const [a, b] = [newCallbackSecret(), newCallbackSecret()];
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });
});

describe('signedHeaders', () => {
  it('matches the Standard Webhooks reference vector', () => {
    const headers = signedHeaders(
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      new Date(1614265330_000),
      '{"test": 2432232314}',
    );
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it("verifies with the package's own verifier", () => {
    const secret = newCallbackSecret();
    const headers = signedHeaders([secret], 'msg_1', new Date(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(verifySignature(secret, headers, body)).toBe(true);
  });

  it.each([
    ['a changed body', (secret: string) => [secret, body.replace('61', '62')] as const],
    ['a wrong secret', () => [newCallbackSecret(), body] as const],
  ])('fails with %s', (_case, change) => {
    const secret = newCallbackSecret();
    const headers = signedHeaders([secret], 'msg_2', new Date(), body);
    const [verifyingSecret, receivedBody] = change(secret);
    expect(() => new Webhook(verifyingSecret).verify(receivedBody, headers)).toThrow(WebhookVerificationError);
    expect(verifySignature(verifyingSecret, headers, receivedBody)).toBe(false);
  });

  it('signs with every secret given, and each one verifies on its own (rotation)', () => {
    const [current, previous] = [newCallbackSecret(), newCallbackSecret()];
    const headers = signedHeaders([current, previous], 'msg_3', new Date(), body);
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
      expect(verifySignature(secret, headers, body)).toBe(true);
    }
    expect(verifySignature(newCallbackSecret(), headers, body)).toBe(false);
  });

  it('refuses to sign without a secret', () => {
    expect(() => signedHeaders([], 'msg_4', new Date(), body)).toThrow(/at least one secret/);
  });
});

describe('verifySignature', () => {
  const secret = newCallbackSecret();
  const sentAt = new Date('2026-03-01T12:00:00Z');
  const headers = signedHeaders([secret], 'msg_5', sentAt, body);
  const secondsLater = (s: number) => new Date(sentAt.getTime() + s * 1000);

  it.each([
    [0, true],
    [300, true],
    [-300, true],
    [301, false],
    [-301, false],
  ])('tolerates 5 minutes of clock difference: %i s -> %s', (seconds, expected) => {
    expect(verifySignature(secret, headers, body, secondsLater(seconds))).toBe(expected);
  });

  it.each<[string, Record<string, string>]>([
    ['no id', { ...headers, 'webhook-id': '' }],
    ['another id', { ...headers, 'webhook-id': 'msg_6' }],
    ['a timestamp that is not a number', { ...headers, 'webhook-timestamp': '1e9' }],
    ['no signature', { ...headers, 'webhook-signature': '' }],
    ['a v2 label on a v1 signature', { ...headers, 'webhook-signature': headers['webhook-signature']!.replace('v1,', 'v2,') }],
  ])('fails with %s', (_case, changed) => {
    expect(verifySignature(secret, changed, body, sentAt)).toBe(false);
  });

  it('reads header names case-insensitively', () => {
    const upper = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifySignature(secret, upper, body, sentAt)).toBe(true);
  });
});
