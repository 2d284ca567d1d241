import {
  PERMISSION_LEVELS,
  SCOPES,
  SCOPE_KEYS,
  atLeastOneScope,
  completePermissions,
  describePermissions,
  hasScope,
  levelLabel,
  parsePermissions,
  permissionsFromStored,
  presetPermissions,
  scopeLabel,
} from './permissions';

describe('permissions', () => {
  it('has the 14 scopes of SPEC.md §5 with stable keys and labels', () => {
    expect(SCOPE_KEYS).toEqual([
      'admin',
      'training',
      'detection',
      'risk',
      'remediation',
      'device',
      'shadow_it',
      'password_compromise',
      'oauth',
      'browser_app',
      'identity',
      'person',
      'email',
      'webhook',
    ]);
    expect(SCOPES.map((s) => s.label)).toContain('Password Compromise');
    expect(scopeLabel('shadow_it')).toBe('Shadow IT');
    expect(PERMISSION_LEVELS.map((l) => l.label)).toEqual(['None', 'Read-only', 'Read and write']);
    expect(levelLabel('write')).toBe('Read and write');
  });

  it('applies a preset to every scope', () => {
    const read = presetPermissions('read');
    expect(Object.keys(read)).toHaveLength(14);
    expect(Object.values(read).every((level) => level === 'read')).toBe(true);
    expect(atLeastOneScope(presetPermissions('none'))).toBe(false);
  });

  it('grants a scope at its own level and below, never above', () => {
    const p = completePermissions({ detection: 'read' });
    expect(hasScope(p, 'detection', 'none')).toBe(true);
    expect(hasScope(p, 'detection', 'read')).toBe(true);
    expect(hasScope(p, 'detection', 'write')).toBe(false);
    expect(hasScope(p, 'risk', 'read')).toBe(false);
    expect(hasScope(completePermissions({ detection: 'write' }), 'detection', 'read')).toBe(true);
  });

  it('lets Admin at a level grant every scope at that level only', () => {
    const adminRead = completePermissions({ admin: 'read' });
    for (const scope of SCOPE_KEYS) {
      expect(hasScope(adminRead, scope, 'read')).toBe(true);
      expect(hasScope(adminRead, scope, 'write')).toBe(false);
    }
    const adminWrite = { admin: 'write' } as const;
    expect(SCOPE_KEYS.every((scope) => hasScope(adminWrite, scope, 'write'))).toBe(true);
  });

  it('requires at least one scope above None', () => {
    expect(atLeastOneScope({})).toBe(false);
    expect(atLeastOneScope({ admin: 'none', email: 'none' })).toBe(false);
    expect(atLeastOneScope({ webhook: 'read' })).toBe(true);
  });

  it('parses a client map, naming every unknown scope and level', () => {
    expect(parsePermissions({ detection: 'read' })).toEqual({
      ok: true,
      permissions: completePermissions({ detection: 'read' }),
    });
    const result = parsePermissions({ detections: 'read', risk: 'admin' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.problems.map((p) => p.field)).toEqual([
        'permissions.detections',
        'permissions.risk',
      ]);
    }
    expect(parsePermissions(null).ok).toBe(false);
    expect(parsePermissions(['detection']).ok).toBe(false);
  });

  it('reads stored maps leniently, dropping what it does not know', () => {
    expect(
      permissionsFromStored({ detection: 'write', future_scope: 'write', risk: 'root' }),
    ).toEqual(completePermissions({ detection: 'write' }));
    expect(permissionsFromStored(null)).toEqual(presetPermissions('none'));
  });

  it('describes granted scopes as scope:level', () => {
    expect(describePermissions(completePermissions({ email: 'read', admin: 'write' }))).toEqual([
      'admin:write',
      'email:read',
    ]);
  });
});
