/**
 * The security-relevant actions the audit log records: a bounded set of dotted names, so a
 * filter by prefix (`user.`, `provider.`) finds every action of a kind.
 */
export const AUDIT_ACTIONS = [
  'user.sign_in.succeeded',
  'user.sign_in.failed',
  'user.signed_out',
  'user.created',
  'user.invited',
  'user.role_changed',
  'user.disabled',
  'user.enabled',
  'user.deleted',
  'user.password_reset_issued',
  'user.password_reset',
  'user.invitation_accepted',
  'user.identity_linked',
  'token.created',
  'token.deleted',
  'settings.global_changed',
  'settings.detection_changed',
  'provider.enrolled',
  'provider.secret_rotated',
  'provider.filter_changed',
  'provider.deleted',
  'provider.disabled',
  'provider.enabled',
  'deliveries.recovered',
  'fallback.changed',
  'delivery.resent',
  'provider.test_sent',
  'oidc.configured',
  'secrets.key_rotated',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(value);
}

export const AUDIT_ACTOR_TYPES = ['user', 'operator', 'system', 'token'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/**
 * Who acted: a signed-in user (id and email), an operator at the command line (the OS user),
 * the service itself, or an API token (id and name). The label is what a reader recognizes;
 * it stays readable after the user or token is gone.
 */
export interface AuditActor {
  readonly type: AuditActorType;
  readonly id: string | null;
  readonly label: string;
}

/**
 * What every audited use case is given by its edge: who acts, from which address (the client
 * IP, web requests only) and under which request id, so an event can be matched with the
 * request logs.
 */
export interface AuditContext {
  readonly actor: AuditActor;
  readonly address?: string | null;
  readonly requestId?: string | null;
}

export interface AuditTarget {
  readonly type: string;
  readonly id: string;
}

export interface NewAuditEvent {
  readonly action: AuditAction;
  readonly context: AuditContext;
  readonly target?: AuditTarget | null;
  /** Before/after values and other facts; never a secret (known secret fields are redacted). */
  readonly details?: Readonly<Record<string, unknown>>;
  /** Defaults to the database's clock. */
  readonly occurredAt?: Date;
}

export interface AuditEvent {
  readonly id: string;
  readonly occurredAt: Date;
  readonly actor: AuditActor;
  readonly action: string;
  readonly target: AuditTarget | null;
  readonly address: string | null;
  readonly requestId: string | null;
  readonly details: Record<string, unknown>;
}

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null, label: 'vigil' };

/** The actor of a signed-in user. */
export function userActor(user: { readonly id: string; readonly email: string }): AuditActor {
  return { type: 'user', id: user.id, label: user.email };
}

/** The actor of an operator at the command line, named by their OS account. */
export function operatorActor(label: string): AuditActor {
  return { type: 'operator', id: null, label: label.trim() === '' ? 'operator' : label.trim() };
}

/** The actor of an API token (by id and name; never its value). */
export function tokenActor(token: { readonly id: string; readonly name: string }): AuditActor {
  return { type: 'token', id: token.id, label: token.name };
}
