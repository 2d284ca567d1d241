import { auditQuery, readAuditFilter } from './audit-filter-form';

describe('the audit log filter', () => {
  it('reads days as whole UTC days, both included, and the other fields as given', () => {
    const { filter, errors } = readAuditFilter({
      since: '2026-03-01',
      until: '2026-03-01',
      actor: ' ada@example.com ',
      action: 'user.',
      target_type: 'user',
      target_id: 'u-1',
    });
    expect(errors).toEqual({});
    expect(filter).toEqual({
      since: new Date('2026-03-01T00:00:00.000Z'),
      until: new Date('2026-03-02T00:00:00.000Z'),
      actor: 'ada@example.com',
      action: 'user.',
      targetType: 'user',
      targetId: 'u-1',
      cursor: undefined,
    });
  });

  it('asks for nothing when the form is empty', () => {
    expect(readAuditFilter({}).filter).toEqual({});
  });

  it('names each field that is wrong, and asks the log for nothing then', () => {
    const read = readAuditFilter({
      since: '2026-02-30',
      until: 'yesterday',
      actor: 'x'.repeat(400),
    });
    expect(read.filter).toBeUndefined();
    expect(read.errors).toEqual({
      since: 'From must be a date such as 2026-03-01.',
      until: 'Until must be a date such as 2026-03-31.',
      actor: 'Actor must be at most 320 characters.',
    });
    expect(readAuditFilter({ since: '2026-03-02', until: '2026-03-01' }).errors).toEqual({
      until: 'Until must be on or after From.',
    });
  });

  it('ignores parameters sent twice, and writes back only the fields that are set', () => {
    expect(readAuditFilter({ actor: ['a', 'b'] }).values.actor).toBe('');
    expect(auditQuery({ actor: 'ada@example.com', action: '', targetId: 'u 1' })).toBe(
      '?actor=ada%40example.com&target_id=u+1',
    );
    expect(auditQuery({})).toBe('');
  });
});
