import { withInbox } from './with-inbox';

const inbox = { endpoint: '127.0.0.1:3003', smtpHost: '127.0.0.1', smtpPort: 1025 };

describe('withInbox', () => {
  it('allows the receiver address and port as a webhook target, after the operator entries', () => {
    expect(withInbox({}, inbox).NOTIFIER_WEBHOOK_TARGET_ALLOWLIST).toBe('127.0.0.1:3003');
    expect(
      withInbox({ NOTIFIER_WEBHOOK_TARGET_ALLOWLIST: '10.0.0.0/8' }, inbox)
        .NOTIFIER_WEBHOOK_TARGET_ALLOWLIST,
    ).toBe('10.0.0.0/8,127.0.0.1:3003');
  });

  it('never allows private targets in general', () => {
    expect(withInbox({}, inbox).NOTIFIER_ALLOW_PRIVATE_WEBHOOK_TARGETS).toBeUndefined();
  });

  it('sends mail to the catcher unless the operator named an SMTP server', () => {
    expect(withInbox({}, inbox)).toMatchObject({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '1025' });
    expect(withInbox({ SMTP_HOST: 'smtp.example.com', SMTP_PORT: '587' }, inbox)).toMatchObject({
      SMTP_HOST: 'smtp.example.com',
      SMTP_PORT: '587',
    });
  });
});
