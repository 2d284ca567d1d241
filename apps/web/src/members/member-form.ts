import { type FieldProblem } from '@vigil/control-plane';

/** How a new member gets in: an invitation link to choose a password, or one set now. */
export type MemberAccess = 'invite' | 'password';

/** The new-member form as typed; the password is never shown again. */
export interface MemberFormValues {
  readonly name: string;
  readonly email: string;
  readonly role: string;
  readonly access: string;
  readonly password: string;
}

export interface MemberFormErrors {
  readonly name?: string;
  readonly email?: string;
  readonly role?: string;
  readonly access?: string;
  readonly password?: string;
  readonly other: readonly string[];
}

export const EMPTY_MEMBER_FORM: MemberFormValues = {
  name: '',
  email: '',
  role: 'member',
  access: 'invite',
  password: '',
};

const LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  email: 'Email',
  role: 'Role',
  password: 'Password',
};

function text(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

export function readMemberForm(body: Record<string, unknown>): MemberFormValues {
  return {
    name: text(body, 'name'),
    email: text(body, 'email'),
    role: text(body, 'role'),
    access: text(body, 'access'),
    password: text(body, 'password'),
  };
}

export function isMemberAccess(value: string): value is MemberAccess {
  return value === 'invite' || value === 'password';
}

/** The user rules' refusals as messages next to the fields they name. */
export function memberFormErrors(problems: readonly FieldProblem[]): MemberFormErrors {
  const errors: Record<string, string> = {};
  const other: string[] = [];
  for (const problem of problems) {
    const label = LABELS[problem.field];
    if (label === undefined) other.push(`${problem.field} ${problem.message}.`);
    else errors[problem.field] ??= `${label} ${problem.message}.`;
  }
  return { ...errors, other };
}
