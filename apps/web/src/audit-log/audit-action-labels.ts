import { type AuditAction } from '@vigil/control-plane';

/** What each audited action is, in words; an action without one shows its name. */
const LABELS: Partial<Readonly<Record<AuditAction, string>>> = {
  'user.sign_in.succeeded': 'Signed in',
  'user.sign_in.failed': 'Sign-in refused',
  'user.signed_out': 'Signed out',
  'user.created': 'Member added',
  'user.invited': 'Member invited',
  'user.role_changed': 'Role changed',
  'user.disabled': 'Member disabled',
  'user.enabled': 'Member enabled',
  'user.deleted': 'Member deleted',
  'user.password_reset_issued': 'Password reset link issued',
  'user.password_reset': 'Password reset',
  'user.invitation_accepted': 'Invitation accepted',
  'user.identity_linked': 'Single sign-on linked',
  'token.created': 'API key created',
  'token.deleted': 'API key deleted',
  'settings.global_changed': 'Global notification settings changed',
  'settings.detection_changed': 'Detection notification settings changed',
  'provider.enrolled': 'Webhook provider enrolled',
  'provider.secret_rotated': 'Signing secret rotated',
  'provider.filter_changed': 'Provider filter changed',
  'provider.deleted': 'Webhook provider deleted',
  'provider.test_sent': 'Test event sent',
  'delivery.resent': 'Delivery resent',
  'oidc.configured': 'Single sign-on configured',
  'secrets.key_rotated': 'Secrets key rotated',
};

export function auditActionLabel(action: string): string {
  return LABELS[action as AuditAction] ?? action;
}

/** The kinds of action the filter offers, each a prefix of the actions it covers. */
export const AUDIT_ACTION_KINDS: readonly { readonly prefix: string; readonly label: string }[] = [
  { prefix: 'user.', label: 'Members and sign-ins (user.)' },
  { prefix: 'user.sign_in', label: 'Sign-ins (user.sign_in)' },
  { prefix: 'token.', label: 'API keys (token.)' },
  { prefix: 'settings.', label: 'Notification settings (settings.)' },
  { prefix: 'provider.', label: 'Webhook providers (provider.)' },
  { prefix: 'delivery.', label: 'Deliveries (delivery.)' },
  { prefix: 'secrets.', label: 'Secrets key (secrets.)' },
];

/** What the audit log's targets are, as the filter offers them. */
export const AUDIT_TARGET_TYPES: readonly { readonly key: string; readonly label: string }[] = [
  { key: 'user', label: 'Member' },
  { key: 'api_token', label: 'API key' },
  { key: 'settings', label: 'Global settings' },
  { key: 'detection', label: 'Detection' },
  { key: 'webhook_provider', label: 'Webhook provider' },
  { key: 'delivery', label: 'Delivery' },
];

export function auditTargetLabel(type: string): string {
  return AUDIT_TARGET_TYPES.find((t) => t.key === type)?.label ?? type;
}
