import { z } from 'zod';

import { readStored, writeStored } from './storage';

describe('storage', () => {
  const schema = z.object({ n: z.number() });

  it('round-trips a valid value', () => {
    writeStored('k', { n: 1 });
    expect(readStored('k', schema, { n: 0 })).toEqual({ n: 1 });
  });

  it('falls back on corrupt JSON or a value of the wrong shape', () => {
    window.localStorage.setItem('k', '{not json');
    expect(readStored('k', schema, { n: 0 })).toEqual({ n: 0 });
    window.localStorage.setItem('k', JSON.stringify({ n: 'one' }));
    expect(readStored('k', schema, { n: 0 })).toEqual({ n: 0 });
  });
});
