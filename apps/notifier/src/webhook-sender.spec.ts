import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { signatureHeader } from './webhook-sender';

const aSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

describe('signatureHeader', () => {
  it('signs exactly as the Standard Webhooks library does', () => {
    fc.assert(
      fc.property(
        fc.uuid(),
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.integer({ min: 1_600_000_000_000, max: 2_000_000_000_000 }),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        (id, payload, millis, keyBytes) => {
          const secret = `whsec_${Buffer.from(keyBytes).toString('base64')}`;
          const timestamp = new Date(millis);
          const header = signatureHeader({ secret }, id, timestamp, payload);
          expect(header).toBe(new Webhook(secret).sign(id, timestamp, payload));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('adds the rotated-out secret, and a receiver holding either one verifies', () => {
    const current = aSecret();
    const previous = aSecret();
    const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
    const payload = JSON.stringify({ detection: 'Impossible travel', users: ['ada@example.com'] });
    const timestamp = new Date();
    const header = signatureHeader(
      { secret: current, previousSecret: previous },
      id,
      timestamp,
      payload,
    );
    expect(header.split(' ')).toHaveLength(2);
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': header,
    };
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
    }
    expect(() => new Webhook(aSecret()).verify(payload, headers)).toThrow();
  });

  it('refuses an empty secret rather than signing with an empty key', () => {
    expect(() => signatureHeader({ secret: 'whsec_' }, 'id', new Date(), '{}')).toThrow('empty');
  });
});
