import { type UserError, type UserErrorCode } from '@vigil/control-plane';

/**
 * What each refusal of a member change or a one-time link tells the person who met it, in words
 * that say why and what to do. The HTTP status is domain-error-status.ts's.
 */
const MESSAGES: Readonly<Record<UserErrorCode, string>> = {
  invalid_request: 'Some of what was entered is not valid: see the fields below.',
  email_taken: 'A member with this email already exists.',
  not_found: 'This member no longer exists: they may have been deleted meanwhile.',
  last_admin: 'Vigil always keeps one active admin: make another admin first.',
  user_disabled:
    'This member is disabled: enable them first. A disabled member cannot sign in or set a password.',
  reset_link_invalid:
    'This link is not valid. Check that it was copied whole, or ask a workspace admin for a new one.',
  reset_link_expired: 'This link has expired. Ask a workspace admin for a new one.',
  reset_link_used:
    'This link was already used. Sign in with the password chosen then, or ask a workspace admin for a new link.',
  reset_link_superseded:
    'A newer link was issued for this account, which replaces this one. Use the latest link you were given.',
  not_provisioned:
    'This account is not set up for single sign-on here. Ask a workspace admin to add you.',
  identity_conflict:
    'This email is already linked to another single sign-on account. Ask a workspace admin.',
};

export function userErrorMessage(error: UserError): string {
  return MESSAGES[error.code];
}
