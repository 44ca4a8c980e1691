import { codeFromSearch, joinLink } from './join-code';

describe('join codes in URLs', () => {
  it('reads ?code= as the join form’s starting value', () => {
    expect(codeFromSearch(new URLSearchParams('code=k7qx-m4tp'))).toBe('K7QX-M4TP');
    expect(codeFromSearch(new URLSearchParams('code=%20K7QX-M4TP%20'))).toBe('K7QX-M4TP');
    expect(codeFromSearch(new URLSearchParams(''))).toBe('');
    expect(codeFromSearch(new URLSearchParams(`code=${'X'.repeat(41)}`))).toBe('');
  });

  it('builds the link a student opens, from where the course is served', () => {
    expect(joinLink('K7QX-M4TP', { origin: 'http://10.0.0.5:8000', pathname: '/' })).toBe(
      'http://10.0.0.5:8000/#/join?code=K7QX-M4TP',
    );
    expect(joinLink('A B', { origin: 'https://lab.example', pathname: '/c10k/' })).toBe(
      'https://lab.example/c10k/#/join?code=A%20B',
    );
  });
});
