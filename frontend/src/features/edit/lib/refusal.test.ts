import { describeRefusal } from './refusal';

describe('describeRefusal', () => {
  it('says the 429’s words and when to try again', () => {
    expect(
      describeRefusal({ message: 'you already have 3 builds waiting or under way (at most 3); wait for one to finish', status: 429, retryAfterS: 10 }),
    ).toEqual({
      message: 'you already have 3 builds waiting or under way (at most 3); wait for one to finish. Try again in 10 s.',
      retryAfterS: 10,
    });
    expect(describeRefusal({ message: 'too many.', status: 429, retryAfterS: null }).message).toBe('too many. Try again once one has finished.');
  });

  it('says a 422 or an unreachable backend as it is', () => {
    expect(describeRefusal({ message: 'source: 70,000 bytes; an edited file may be at most 65,536', status: 422 })).toEqual({
      message: 'source: 70,000 bytes; an edited file may be at most 65,536',
      retryAfterS: null,
    });
    expect(describeRefusal(new Error('Cannot reach the backend'))).toEqual({ message: 'Cannot reach the backend', retryAfterS: null });
  });
});
