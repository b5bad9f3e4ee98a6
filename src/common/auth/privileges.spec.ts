import { hasPrivilege, highestPrivilege, parsePrivileges, privilegesAtLeast } from './privileges';

describe('privileges', () => {
  it('ranks Admin ⊃ Moderator ⊃ Author ⊃ User', () => {
    expect(hasPrivilege(['Admin'], 'Moderator')).toBe(true);
    expect(hasPrivilege(['Moderator'], 'Author')).toBe(true);
    expect(hasPrivilege(['Author'], 'Moderator')).toBe(false);
    expect(hasPrivilege([], 'User')).toBe(true);
    expect(hasPrivilege([], 'Author')).toBe(false);
    expect(highestPrivilege(['Author', 'Moderator'])).toBe('Moderator');
  });

  it('lists the privileges that satisfy a requirement, highest first', () => {
    expect(privilegesAtLeast('Moderator')).toEqual(['Admin', 'Moderator']);
    expect(privilegesAtLeast('User')).toEqual(['Admin', 'Moderator', 'Author', 'User']);
  });

  it('parses the stored comma list and drops unknown names', () => {
    expect(parsePrivileges('Admin, Author,Root,')).toEqual(['Admin', 'Author']);
    expect(parsePrivileges('')).toEqual([]);
  });
});
