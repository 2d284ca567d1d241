import type { CaughtEmail } from './mail-catcher';
import { mailListPage, mailMessagePage, summarizeWebhook, webhooksPage } from './inbox-pages';

const HOSTILE = '<script>alert(1)</script>"\'&';

function email(overrides: Partial<CaughtEmail> = {}): CaughtEmail {
  return {
    id: 1,
    receivedAt: new Date('2026-03-02T10:00:00Z'),
    envelopeFrom: 'notifications@vigil.local',
    envelopeTo: ['security-team@example.com'],
    from: 'notifications@vigil.local',
    to: ['security-team@example.com'],
    subject: 'Root account console login: 2 new events',
    text: 'two new events',
    html: '<p>two new events</p>',
    ...overrides,
  };
}

describe('inbox pages', () => {
  it('escapes what a webhook sender controls', () => {
    const body = JSON.stringify({ notification: { title: HOSTILE }, metadata: {} });
    const page = webhooksPage(
      [
        {
          seq: 1,
          receivedAt: new Date(),
          channel: 'demo',
          headers: { 'x-evil': HOSTILE },
          body,
          signature: 'unchecked',
        },
      ],
      'http://127.0.0.1:3003/webhooks/<channel>',
    );
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('escapes the subject and recipients in the mail list', () => {
    const page = mailListPage(
      [email({ subject: HOSTILE, envelopeTo: [HOSTILE] })],
      '127.0.0.1:1025',
    );
    expect(page).not.toContain('<script>');
  });

  it('shows an email HTML part only inside a sandboxed frame, as an escaped attribute', () => {
    const page = mailMessagePage(email({ html: `<img src=x onerror="${HOSTILE}"><b>hi</b>` }));
    expect(page).toContain('sandbox=""');
    expect(page).not.toContain('<b>hi</b>');
    expect(page).toContain('srcdoc="&lt;img src=x onerror=&quot;');
    expect(page).not.toContain('<script>');
  });

  it('keeps its own style sheet as written, quotes included', () => {
    expect(mailListPage([], '127.0.0.1:1025')).toMatch(/<style>[^<]*"DejaVu Sans"[^<]*<\/style>/);
  });

  it('tells detection and investigation payloads apart by their metadata object', () => {
    expect(summarizeWebhook('{"notification":{"title":"t"},"metadata":{}}')).toEqual({
      kind: 'detection',
      title: 't',
    });
    expect(summarizeWebhook('{"investigation_metadata":{}}').kind).toBe('investigation');
    expect(summarizeWebhook('not json')).toEqual({ kind: 'other', title: undefined });
  });
});
