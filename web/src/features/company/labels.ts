import type { TFunction } from 'i18next';
import { MISSING } from '@/shared/format/number';

/** The built-in roles' slugs (their names are translated: `role.<slug>`). */
const BUILTIN = new Set(['internal-admin', 'company-admin', 'company-staff', 'owner']);

/** A staff member's role: built-in slugs translated, custom names as they are, else "--". */
export function staffRoleLabel(roleName: string | null | undefined, t: TFunction): string {
  const name = (roleName ?? '').trim();
  if (!name) return MISSING;
  return BUILTIN.has(name) ? t(`role.${name}`) : name;
}

/** The role list's own role: the one whose name the signed-in user's role has. */
export function isOwnRole(role: { name: string }, myRoleName: string | null | undefined): boolean {
  return !!myRoleName && role.name === myRoleName;
}

/** The company group's screens by route key, the staff list first. */
const CHILDREN: readonly [string, string][] = [
  ['company.user', '/enterprise/user'],
  ['company.info', '/enterprise/company'],
  ['company.role.list.view', '/enterprise/roles'],
  ['company.agent', '/enterprise/agents'],
];

/** The first company screen the user may open (`/enterprise/user` for most). */
export function enterpriseTarget(routes: ReadonlySet<string>): string {
  return CHILDREN.find(([key]) => routes.has(key))?.[1] ?? '/enterprise/user';
}
