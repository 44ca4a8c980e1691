import { describe, expect, it } from 'vitest';

import { absoluteLink, compareLink, comparedFromSearch, MAX_COMPARED } from './share-link';

describe('a result’s link', () => {
  it('is absolute, under the hash router, so a fresh browser opens the result', () => {
    expect(absoluteLink('/runs/3f2a', { origin: 'http://localhost:8000', pathname: '/' })).toBe('http://localhost:8000/#/runs/3f2a');
    expect(absoluteLink('sweeps/9', { origin: 'https://lab.example', pathname: '/course/' })).toBe('https://lab.example/course/#/sweeps/9');
  });
});

describe('a comparison’s address', () => {
  const results = [
    { kind: 'run', id: '3f2a' },
    { kind: 'sweep', id: '77e1' },
  ] as const;

  it('names its results in order, the reference first, and reads back the same', () => {
    const link = compareLink([...results]);
    expect(link).toBe('/compare?results=run:3f2a,sweep:77e1');
    expect(comparedFromSearch(new URLSearchParams(link.split('?')[1]))).toEqual({ ok: true, results });
  });

  it('says what is wrong with one that names nothing, something else, or too much', () => {
    expect(comparedFromSearch(new URLSearchParams(''))).toEqual({ ok: false, problem: 'none' });
    expect(comparedFromSearch(new URLSearchParams('results=run:3f2a,table:1'))).toEqual({ ok: false, problem: 'malformed', item: 'table:1' });
    const many = Array.from({ length: MAX_COMPARED + 1 }, (_, i) => `run:${i}`).join(',');
    expect(comparedFromSearch(new URLSearchParams(`results=${many}`))).toEqual({ ok: false, problem: 'tooMany' });
  });

  it('names a result once', () => {
    expect(comparedFromSearch(new URLSearchParams('results=run:a,run:a,sweep:a'))).toEqual({
      ok: true,
      results: [
        { kind: 'run', id: 'a' },
        { kind: 'sweep', id: 'a' },
      ],
    });
  });
});
