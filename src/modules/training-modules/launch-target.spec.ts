import { launchTarget } from './launch-target';

describe('launchTarget', () => {
  it.each([
    ['scorm12', 'index.html', { kind: 'file', file: 'index.html' }],
    ['scorm12', './lessons/a%20b.html?x=1#top', { kind: 'file', file: 'lessons/a b.html' }],
    ['cmi5', 'https://lms.example/au', { kind: 'external', url: 'https://lms.example/au' }],
    ['cmi5', 'HTTP://lms.example/au', { kind: 'external', url: 'http://lms.example/au' }],
    ['cmi5', 'au/index.html', { kind: 'file', file: 'au/index.html' }],
  ])('%s %s is content', (standard, path, target) => {
    expect(launchTarget(standard, path)).toEqual(target);
  });

  it.each([
    ['scorm12', 'javascript:alert(1)'],
    ['scorm12', ' JavaScript:alert(1)'],
    ['scorm12', 'java\tscript:alert(1)'],
    ['scorm12', 'java\nscript:alert(1)'],
    ['scorm12', 'data:text/html,x'],
    ['scorm12', 'https://evil.example/a.html'],
    ['scorm2004', 'vbscript:x'],
    ['scorm12', '//evil.example/a.html'],
    ['scorm12', '../outside.html'],
    ['scorm12', '/etc/passwd'],
    ['xapi', 'https://lrs.example/launch.html'],
    ['cmi5', 'javascript:alert(1)'],
    ['cmi5', 'data:text/html,x'],
    ['cmi5', 'ftp://files.example/au'],
    ['cmi5', 'file:///etc/passwd'],
    ['cmi5', 'blob:https://lms.example/1'],
  ])('%s %j is not content', (standard, path) => {
    expect(launchTarget(standard, path)).toBeNull();
  });
});
