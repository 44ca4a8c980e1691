import { INSTRUCTOR_KEY, parseInstructorFlag, readInstructorMode, setInstructorMode } from './instructor-mode';

describe('instructor mode', () => {
  it('is off by default and persists when switched', () => {
    expect(readInstructorMode()).toBe(false);
    setInstructorMode(true);
    expect(readInstructorMode()).toBe(true);
    expect(JSON.parse(window.localStorage.getItem(INSTRUCTOR_KEY)!)).toEqual({ version: 1, enabled: true });
    setInstructorMode(false);
    expect(readInstructorMode()).toBe(false);
  });

  it('ignores a corrupt or outdated stored value', () => {
    window.localStorage.setItem(INSTRUCTOR_KEY, '{"version":2,"enabled":true}');
    expect(readInstructorMode()).toBe(false);
    window.localStorage.setItem(INSTRUCTOR_KEY, '{"version":1,"enabled":"yes"}');
    expect(readInstructorMode()).toBe(false);
    window.localStorage.setItem(INSTRUCTOR_KEY, 'not json');
    expect(readInstructorMode()).toBe(false);
  });

  it('reads the ?instructor= flag from the URL, and only valid values', () => {
    expect(parseInstructorFlag('1')).toBe(true);
    expect(parseInstructorFlag('true')).toBe(true);
    expect(parseInstructorFlag('0')).toBe(false);
    expect(parseInstructorFlag('off')).toBe(false);
    expect(parseInstructorFlag(null)).toBeUndefined();
    expect(parseInstructorFlag('')).toBeUndefined();
    expect(parseInstructorFlag('<script>')).toBeUndefined();
  });
});
