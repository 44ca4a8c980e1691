import { codeFromSearch } from './join-code';

describe('join codes in URLs', () => {
  it('reads ?code= as the join form’s starting value', () => {
    expect(codeFromSearch(new URLSearchParams('code=k7qx-m4tp'))).toBe('K7QX-M4TP');
    expect(codeFromSearch(new URLSearchParams('code=%20K7QX-M4TP%20'))).toBe('K7QX-M4TP');
    expect(codeFromSearch(new URLSearchParams(''))).toBe('');
    expect(codeFromSearch(new URLSearchParams(`code=${'X'.repeat(41)}`))).toBe('');
  });
});
