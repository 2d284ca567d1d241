import { Webhook } from 'standardwebhooks';
import { WebhookInbox } from './webhook-inbox';

const SECRET = `whsec_${Buffer.from('a demo secret of enough length').toString('base64')}`;

function signed(body: string, secret = SECRET): Record<string, string> {
  const timestamp = new Date();
  return {
    'content-type': 'application/json',
    'webhook-id': 'msg_1',
    'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign('msg_1', timestamp, body),
  };
}

describe('WebhookInbox', () => {
  const body = JSON.stringify({ notification: { title: 'x' } });

  it('marks a delivery valid when it is signed with the channel secret', () => {
    const inbox = new WebhookInbox(10);
    inbox.setSecret('demo', SECRET);
    expect(inbox.record('demo', signed(body), body).signature).toBe('valid');
  });

  it('marks a delivery invalid when the body was altered or the secret differs', () => {
    const inbox = new WebhookInbox(10);
    inbox.setSecret('demo', SECRET);
    const altered = inbox.record('demo', signed(body), `${body} `);
    expect(altered.signature).toBe('invalid');
    expect(altered.signatureError).toBeDefined();
    const other = `whsec_${Buffer.from('another secret entirely').toString('base64')}`;
    expect(inbox.record('demo', signed(body, other), body).signature).toBe('invalid');
  });

  it('leaves a delivery unchecked on a channel whose secret it does not know', () => {
    const inbox = new WebhookInbox(10);
    inbox.setSecret('demo', SECRET);
    expect(inbox.record('other', signed(body), body).signature).toBe('unchecked');
  });

  it('lists newest first and keeps at most its capacity', () => {
    const inbox = new WebhookInbox(3);
    for (let i = 1; i <= 5; i++) inbox.record('demo', {}, String(i));
    expect(inbox.list().map((w) => w.body)).toEqual(['5', '4', '3']);
    expect(inbox.list().map((w) => w.seq)).toEqual([5, 4, 3]);
  });
});
