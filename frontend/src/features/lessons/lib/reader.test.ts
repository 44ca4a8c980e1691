import { maySeeSpeakerNotes, progressStoreFor, type Reader } from './reader';

const solo: Reader = { mode: 'solo', person: { id: 'solo', kind: 'solo' } };
const instructor: Reader = { mode: 'classroom', person: { id: 'p-grace', kind: 'instructor' } };
const student: Reader = { mode: 'classroom', person: { id: 'p-ada', kind: 'student' } };
const visitor: Reader = { mode: 'classroom', person: null };

describe('reader', () => {
  it('keeps progress on the server for someone signed in to a class, else in this browser', () => {
    expect(progressStoreFor(student)).toEqual({ in: 'server', personId: 'p-ada', readOnly: false });
    expect(progressStoreFor(instructor)).toEqual({ in: 'server', personId: 'p-grace', readOnly: false });
    // A student whose class ended reads, and changes nothing (the server would refuse it).
    const ended: Reader = { mode: 'classroom', person: { id: 'p-ada', kind: 'student', read_only_until: '2026-12-01T10:00:00+00:00' } };
    expect(progressStoreFor(ended)).toEqual({ in: 'server', personId: 'p-ada', readOnly: true });
    expect(progressStoreFor(solo)).toEqual({ in: 'browser' });
    expect(progressStoreFor(visitor)).toEqual({ in: 'browser' });
    expect(progressStoreFor(undefined)).toEqual({ in: 'browser' }); // nobody said: as before
    expect(progressStoreFor(null)).toEqual({ in: 'unknown' }); // still asking
  });

  it('lets only an instructor, or solo mode, switch the speaker notes on', () => {
    expect(maySeeSpeakerNotes(instructor)).toBe(true);
    expect(maySeeSpeakerNotes(solo)).toBe(true);
    expect(maySeeSpeakerNotes(undefined)).toBe(true);
    expect(maySeeSpeakerNotes(student)).toBe(false);
    expect(maySeeSpeakerNotes(visitor)).toBe(false);
    expect(maySeeSpeakerNotes(null)).toBe(false);
  });
});
