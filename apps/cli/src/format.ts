import {
  type ApiTokenView,
  type AuditEvent,
  type UserView,
  TOKEN_STATE_LABELS,
  describePermissions,
  roleLabel,
} from '@vigil/control-plane';

/** `2026-03-01 09:00 UTC`: minute precision is what an operator reads in a list. */
export function formatInstant(at: Date | null): string {
  return at === null ? 'never' : `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Left-aligned columns separated by two spaces, with a header row. */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

export function formatTokenList(tokens: readonly ApiTokenView[]): string {
  if (tokens.length === 0) return 'No API tokens.';
  return formatTable(
    ['ID', 'NAME', 'STATE', 'CREATED', 'LAST USED', 'EXPIRES', 'LAST FOUR', 'SCOPES'],
    tokens.map((t) => [
      t.id,
      t.name,
      TOKEN_STATE_LABELS[t.state],
      formatInstant(t.createdAt),
      formatInstant(t.lastUsedAt),
      formatInstant(t.expiresAt),
      `…${t.lastFour}`,
      describePermissions(t.permissions).join(','),
    ]),
  );
}

const USER_STATUS_LABELS: Readonly<Record<UserView['status'], string>> = {
  active: 'Active',
  disabled: 'Disabled',
  invited: 'Invited',
};

export function formatUserList(users: readonly UserView[]): string {
  if (users.length === 0) return 'No users.';
  return formatTable(
    ['ID', 'EMAIL', 'NAME', 'ROLE', 'STATUS', 'SIGN-IN', 'LAST SIGN-IN', 'CREATED'],
    users.map((u) => [
      u.id,
      u.email,
      u.name,
      roleLabel(u.role),
      USER_STATUS_LABELS[u.status],
      [u.hasPassword ? 'password' : '', u.singleSignOn ? 'sso' : ''].filter(Boolean).join('+') ||
        'none',
      formatInstant(u.lastSignInAt),
      formatInstant(u.createdAt),
    ]),
  );
}

/** One line per event; control characters in free text are shown escaped, never interpreted. */
export function formatAuditList(events: readonly AuditEvent[]): string {
  if (events.length === 0) return 'No audit events.';
  return formatTable(
    ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'ADDRESS', 'DETAILS'],
    events.map((e) => [
      `${e.occurredAt.toISOString().slice(0, 19).replace('T', ' ')} UTC`,
      printable(`${e.actor.type}:${e.actor.label}`),
      e.action,
      e.target === null ? '-' : printable(`${e.target.type}:${e.target.id}`),
      e.address ?? '-',
      Object.keys(e.details).length === 0 ? '' : printable(JSON.stringify(e.details)),
    ]),
  );
}

function printable(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
