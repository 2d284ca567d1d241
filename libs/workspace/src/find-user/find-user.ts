import { type UserView } from '@vigil/control-plane';
import { type Users } from '../ports/users';
import { WorkspaceError } from '../workspace-error';

/** One user as the member list shows them (their page, a confirmation); unknown: `not_found`. */
export class FindUser {
  constructor(private readonly users: Users) {}

  async execute(query: { readonly userId: string }): Promise<UserView> {
    const user = (await this.users.list()).find((u) => u.id === query.userId);
    if (user === undefined) throw new WorkspaceError('not_found', 'No such user');
    return user;
  }
}
