import { type OneTimeLink } from '@vigil/control-plane';
import { type Mailer, type OutgoingEmail } from '../ports/mailer';
import { AccountLinks } from './account-links';

const link: OneTimeLink = {
  purpose: 'invitation',
  token: 'A'.repeat(43),
  expiresAt: new Date('2026-03-08T09:05:00Z'),
  userId: 'user-1',
  email: 'grace@example.com',
};

class RecordingMailer implements Mailer {
  readonly sent: OutgoingEmail[] = [];
  constructor(private readonly failWith?: string) {}
  async send(email: OutgoingEmail): Promise<void> {
    if (this.failWith !== undefined) throw new Error(this.failWith);
    this.sent.push(email);
  }
}

describe('AccountLinks', () => {
  it('shows the link to the admin when no SMTP server is configured', async () => {
    const handed = await new AccountLinks({ appUrl: 'https://vigil.example.com/' }).handOver(
      link,
      'Grace',
    );
    expect(handed).toEqual({
      via: 'shown',
      email: 'grace@example.com',
      url: `https://vigil.example.com/invitation/${link.token}`,
      expiresAt: link.expiresAt,
    });
  });

  it('emails the link, which the admin then never sees', async () => {
    const mailer = new RecordingMailer();
    const handed = await new AccountLinks({ appUrl: 'https://v.example', mailer }).handOver(
      { ...link, purpose: 'password_reset' },
      'Grace <b>',
    );
    expect(handed).toEqual({ via: 'email', email: link.email, expiresAt: link.expiresAt });
    expect(JSON.stringify(handed)).not.toContain(link.token);
    const [email] = mailer.sent;
    expect(email).toMatchObject({ to: 'grace@example.com', subject: 'Reset your Vigil password' });
    expect(email.text).toContain(`https://v.example/reset-password/${link.token}`);
    expect(email.text).toContain('until 8 Mar 2026, 09:05 UTC');
    expect(email.html).toContain('Hello Grace &lt;b&gt;,');
    expect(email.html).toContain(`href="https://v.example/reset-password/${link.token}"`);
  });

  it('shows the link with the reason when the email cannot be sent', async () => {
    const mailer = new RecordingMailer('connect ECONNREFUSED 127.0.0.1:25');
    const handed = await new AccountLinks({ appUrl: 'https://v.example', mailer }).handOver(
      link,
      'Grace',
    );
    expect(handed).toMatchObject({
      via: 'shown',
      url: `https://v.example/invitation/${link.token}`,
      emailFailure: 'connect ECONNREFUSED 127.0.0.1:25',
    });
  });
});
