import { completePermissions } from '@vigil/control-plane';
import { formatAuditList, formatInstant, formatTable, formatTokenList } from './format';

describe('formatting the token list', () => {
  it('aligns columns under their headers', () => {
    expect(formatTable(['A', 'LONGER'], [['wide cell', 'x']])).toBe(
      'A          LONGER\nwide cell  x',
    );
  });

  it('shows dates to the minute in UTC and "never" for no date', () => {
    expect(formatInstant(new Date('2026-03-01T09:30:59Z'))).toBe('2026-03-01 09:30 UTC');
    expect(formatInstant(null)).toBe('never');
  });

  it('lists id, name, state, dates, last four and scopes', () => {
    const text = formatTokenList([
      {
        id: '7d0b0cbe-55a3-4a6e-9d3c-54b1b1d3f3c1',
        name: 'SIEM',
        permissions: completePermissions({ detection: 'read' }),
        lastFour: 'Ab12',
        createdAt: new Date('2026-01-01T00:00:00Z'),
        lastUsedAt: null,
        expiresAt: new Date('2026-04-01T00:00:00Z'),
        createdBy: 'cli',
        state: 'active',
      },
    ]);
    const [header, row] = text.split('\n');
    expect(header.split(/\s{2,}/)).toEqual([
      'ID',
      'NAME',
      'STATE',
      'CREATED',
      'LAST USED',
      'EXPIRES',
      'LAST FOUR',
      'SCOPES',
    ]);
    expect(row.split(/\s{2,}/)).toEqual([
      '7d0b0cbe-55a3-4a6e-9d3c-54b1b1d3f3c1',
      'SIEM',
      'Active',
      '2026-01-01 00:00 UTC',
      'never',
      '2026-04-01 00:00 UTC',
      '…Ab12',
      'detection:read',
    ]);
    expect(formatTokenList([])).toBe('No API tokens.');
  });
});

describe('formatting the audit list', () => {
  it('shows time, actor, action, target, address and details, with control characters escaped', () => {
    const text = formatAuditList([
      {
        id: '1',
        occurredAt: new Date('2026-01-01T10:00:00.123Z'),
        actor: { type: 'user', id: 'u', label: 'ada@example.com' },
        action: 'user.disabled',
        target: { type: 'user', id: 'u2' },
        address: '198.51.100.7',
        requestId: null,
        details: { email: 'eve@example.com\u001b[31m' },
      },
    ]);
    const [header, row] = text.split('\n');
    expect(header.split(/\s{2,}/)).toEqual([
      'TIME',
      'ACTOR',
      'ACTION',
      'TARGET',
      'ADDRESS',
      'DETAILS',
    ]);
    expect(row.split(/\s{2,}/)).toEqual([
      '2026-01-01 10:00:00 UTC',
      'user:ada@example.com',
      'user.disabled',
      'user:u2',
      '198.51.100.7',
      '{"email":"eve@example.com\\u001b[31m"}',
    ]);
    expect(formatAuditList([])).toBe('No audit events.');
  });
});
