import { auditDetailsLines } from './audit-details';

describe('auditDetailsLines', () => {
  it('shows a role change as before → after, beside its facts', () => {
    expect(
      auditDetailsLines({ email: 'max@example.com', before: 'member', after: 'admin' }),
    ).toEqual(['email: max@example.com', 'member → admin']);
  });

  it('shows only the settings that changed, field by field, nested ones by their path', () => {
    const before = {
      frequency: 'batch',
      recipients: ['soc@example.com'],
      silence: { kind: 'none' },
      threshold: null,
    };
    const after = {
      frequency: 'immediate',
      recipients: ['soc@example.com', 'ciso@example.com'],
      silence: { kind: 'snoozed', until: 1_700_000_000_000 },
      threshold: null,
    };
    expect(auditDetailsLines({ change: 'settings', before, after })).toEqual([
      'change: settings',
      'frequency: batch → immediate',
      'recipients: soc@example.com → soc@example.com, ciso@example.com',
      'silence.kind: none → snoozed',
      'silence.until: none → 2023-11-14T22:13:20.000Z',
    ]);
  });

  it('says when a change changed nothing, and cuts long lists and values', () => {
    expect(auditDetailsLines({ before: { a: 1 }, after: { a: 1 } })).toEqual(['no change']);
    const many = Object.fromEntries(
      Array.from({ length: 9 }, (_, i) => [`k${i}`, 'x'.repeat(200)]),
    );
    const lines = auditDetailsLines(many);
    expect(lines).toHaveLength(6);
    expect(lines[0]).toHaveLength(4 + 120);
    expect(lines[0].endsWith('…')).toBe(true);
    expect(lines[5]).toBe('and 4 more');
  });

  it('leaves out what is missing on both sides, as a detection turning custom', () => {
    expect(
      auditDetailsLines({
        before: { useCustom: false, custom: null },
        after: { useCustom: true, custom: { frequency: 'batch', threshold: null } },
      }),
    ).toEqual(['useCustom: false → true', 'custom.frequency: none → batch']);
  });
});
