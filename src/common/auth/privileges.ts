/** Privileges from lowest to highest; each includes the ones below it (Admin ⊃ Moderator ⊃ Author ⊃ User). */
export const PRIVILEGES = ['User', 'Author', 'Moderator', 'Admin'] as const;
export type Privilege = (typeof PRIVILEGES)[number];

export const privilegeRank = (privilege: Privilege): number => PRIVILEGES.indexOf(privilege);

export function isPrivilege(value: string): value is Privilege {
  return (PRIVILEGES as readonly string[]).includes(value);
}

/** The highest privilege among those held; every account is at least a User. */
export function highestPrivilege(held: readonly Privilege[]): Privilege {
  return held.reduce<Privilege>((best, p) => (privilegeRank(p) > privilegeRank(best) ? p : best), 'User');
}

export function hasPrivilege(held: readonly Privilege[], required: Privilege): boolean {
  return privilegeRank(highestPrivilege(held)) >= privilegeRank(required);
}

/** The privileges that satisfy `required`, for a 403's `requiredPrivileges`. */
export function privilegesAtLeast(required: Privilege): Privilege[] {
  return PRIVILEGES.filter((p) => privilegeRank(p) >= privilegeRank(required)).reverse();
}

/** Parses the stored comma list; unknown names are dropped. */
export function parsePrivileges(stored: string): Privilege[] {
  return stored
    .split(',')
    .map((p) => p.trim())
    .filter(isPrivilege);
}

/** Whether the caller (possibly anonymous) holds `privilege` or a higher one. */
export const callerHas = (caller: { privileges: Privilege[] } | undefined, privilege: Privilege): boolean =>
  caller !== undefined && hasPrivilege(caller.privileges, privilege);

export const isAdmin = (caller: { privileges: Privilege[] } | undefined): boolean => callerHas(caller, 'Admin');
