import {
  SCOPES,
  describePermissions,
  levelLabel,
  scopeLabel,
  type PermissionLevel,
  type Permissions,
  type Scope,
} from '@vigil/control-plane';

/** What a token may do, in words: `All scopes: Read-only`, or each granted scope with its level. */
export function grantedSummary(permissions: Permissions): string {
  const granted = describePermissions(permissions);
  if (granted.length === 0) return 'No scopes';
  if (granted.length === SCOPES.length) {
    const levels = new Set(Object.values(permissions));
    if (levels.size === 1) return `All scopes: ${levelLabel([...levels][0])}`;
  }
  return granted
    .map((g) => {
      const [scope, level] = g.split(':') as [Scope, PermissionLevel];
      return `${scopeLabel(scope)} (${levelLabel(level)})`;
    })
    .join(', ');
}
