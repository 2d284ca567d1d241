import { UserError } from '@vigil/control-plane';
import { httpStatusOf } from '../responses/domain-error-status';
import { userErrorMessage } from './user-error-message';

describe('userErrorMessage', () => {
  it('says why a change that would leave no admin is refused, with a conflict status', () => {
    const error = new UserError('last_admin', 'ada@example.com is the last active admin');
    expect(userErrorMessage(error)).toBe(
      'Vigil always keeps one active admin: make another admin first.',
    );
    expect(httpStatusOf(error)).toBe(409);
  });

  it('tells the holder of an expired link to ask for a new one, as gone', () => {
    const error = new UserError('reset_link_expired', 'expired');
    expect(userErrorMessage(error)).toBe(
      'This link has expired. Ask a workspace admin for a new one.',
    );
    expect(httpStatusOf(error)).toBe(410);
  });
});
