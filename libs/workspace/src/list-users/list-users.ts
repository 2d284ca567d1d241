import { type UserView } from '@vigil/control-plane';
import { type Users } from '../ports/users';

/** The members of Settings → Members: every user, by email, with how they stand. */
export interface MemberList {
  readonly users: readonly UserView[];
  /** Active (enabled) workspace admins: the last one can be neither demoted, disabled nor deleted. */
  readonly activeAdmins: number;
}

export class ListUsers {
  constructor(private readonly users: Users) {}

  async execute(): Promise<MemberList> {
    const users = await this.users.list();
    const activeAdmins = users.filter((u) => u.role === 'admin' && u.disabledAt === null).length;
    return { users, activeAdmins };
  }
}
