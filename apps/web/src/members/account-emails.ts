/** Injection token: true when invitations and reset links are emailed (an SMTP server is set). */
export const ACCOUNT_EMAILS = Symbol('ACCOUNT_EMAILS');
