import { type OneTimeLink } from '@vigil/control-plane';
import { html } from '@vigil/http';
import { type OutgoingEmail } from '../ports/mailer';

const FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/**
 * The email that carries a one-time link: an invitation to choose a first password, or a
 * password reset. Plain text and HTML say the same; the name is escaped in the HTML.
 */
export function accountLinkEmail(
  link: Pick<OneTimeLink, 'purpose' | 'email' | 'expiresAt'>,
  url: string,
  name: string,
): OutgoingEmail {
  const invitation = link.purpose === 'invitation';
  const until = `${FORMAT.format(link.expiresAt)} UTC`;
  const subject = invitation ? 'You are invited to Vigil' : 'Reset your Vigil password';
  const lead = invitation
    ? 'A workspace admin added you to Vigil. Choose your password to sign in:'
    : 'A workspace admin reset your Vigil password. Choose a new one:';
  const after =
    `The link works once, until ${until}. If you did not expect this email, ignore it: ` +
    'nothing changes until the link is used.';
  return {
    to: link.email,
    subject,
    text: [`Hello ${name},`, '', lead, '', url, '', after, ''].join('\n'),
    html: html`<p>Hello ${name},</p>
      <p>${lead}</p>
      <p><a href="${url}">${invitation ? 'Choose your password' : 'Choose a new password'}</a></p>
      <p>${after}</p>`.value,
  };
}
