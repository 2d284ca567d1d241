import { EMPTY_MEMBER_FORM, isMemberAccess, memberFormErrors, readMemberForm } from './member-form';

describe('the new member form', () => {
  it('reads text fields, and nothing from fields sent twice or not at all', () => {
    expect(
      readMemberForm({ name: 'Grace', email: ['a@x', 'b@x'], role: 'admin', access: 'invite' }),
    ).toEqual({ ...EMPTY_MEMBER_FORM, name: 'Grace', email: '', role: 'admin' });
    expect(isMemberAccess('invite')).toBe(true);
    expect(isMemberAccess('sso')).toBe(false);
  });

  it('puts each refusal of the user rules next to its field, the first one only', () => {
    expect(
      memberFormErrors([
        { field: 'email', message: 'must be an email address' },
        { field: 'email', message: 'is already taken' },
        { field: 'password', message: 'must be at least 12 characters' },
        { field: 'team', message: 'is unknown' },
      ]),
    ).toEqual({
      email: 'Email must be an email address.',
      password: 'Password must be at least 12 characters.',
      other: ['team is unknown.'],
    });
  });
});
