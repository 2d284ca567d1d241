import { validateCreateUser, type CreateUserCommand } from './create-user-command';
import { UserError } from './user-error';

const valid: CreateUserCommand = {
  email: '  Ada@Example.COM ',
  name: ' Ada Lovelace ',
  role: 'admin',
  password: 'correct horse battery',
};

function problemsOf(command: CreateUserCommand): string[] {
  try {
    validateCreateUser(command);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as UserError).details.map((d) => `${d.field}: ${d.message}`);
  }
  throw new Error('expected the command to be refused');
}

describe('validateCreateUser', () => {
  it('lowercases and trims the email and trims the name', () => {
    expect(validateCreateUser(valid)).toEqual({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      role: 'admin',
      password: 'correct horse battery',
    });
  });

  it('reports every problem at once, naming the field', () => {
    expect(problemsOf({ email: 'nope', name: '', role: 'owner', password: 'short' })).toEqual([
      'email: must be an email address',
      'name: is required',
      'role: must be admin or member',
      'password: must be at least 12 characters',
    ]);
  });

  it('refuses a password too long to hash cheaply', () => {
    expect(problemsOf({ ...valid, password: 'x'.repeat(257) })).toEqual([
      'password: must be at most 256 characters',
    ]);
  });
});
