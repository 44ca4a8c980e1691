import {
  clearDraft,
  clearExerciseDraft,
  clearLastBuild,
  draftKey,
  readDraft,
  readExerciseDraft,
  readLastAnswer,
  readLastBuild,
  saveDraft,
  saveExerciseDraft,
  saveLastAnswer,
  saveLastBuild,
  startingText,
} from './drafts';

const when = new Date('2026-11-25T10:00:00Z');

describe('drafts', () => {
  it('keeps a draft per server, and forgets it on reset', () => {
    expect(readDraft('c-epoll')).toBeNull();
    expect(saveDraft('c-epoll', 'int main(void) { return 1; }\n', null, when)).toBe(true);
    expect(readDraft('c-epoll')).toEqual({ version: 1, text: 'int main(void) { return 1; }\n', from: null, savedAt: '2026-11-25T10:00:00.000Z' });
    expect(readDraft('c-poll')).toBeNull();
    clearDraft('c-epoll');
    expect(readDraft('c-epoll')).toBeNull();
  });

  it('keeps an exercise’s answer per exercise, apart from the free editor’s draft of its server', () => {
    saveDraft('c-epoll', 'my free edit', null, when);
    expect(saveExerciseDraft('et-drain', 'my answer', when)).toBe(true);
    expect(readExerciseDraft('et-drain')?.text).toBe('my answer');
    expect(readExerciseDraft('epollout-on-demand')).toBeNull();
    expect(readDraft('c-epoll')?.text).toBe('my free edit');
    saveLastAnswer('et-drain', { variantId: 'v2', runId: 'r2' });
    expect(readLastAnswer('et-drain')).toEqual({ variantId: 'v2', runId: 'r2' });
    expect(readLastBuild('c-epoll')).toBeNull();
    clearExerciseDraft('et-drain');
    expect(readExerciseDraft('et-drain')).toBeNull();
    expect(readDraft('c-epoll')?.text).toBe('my free edit');
  });

  it('reads a corrupt or outdated draft as none', () => {
    window.localStorage.setItem(draftKey('c-epoll'), '{"version":0,"text":"old"}');
    expect(readDraft('c-epoll')).toBeNull();
    window.localStorage.setItem(draftKey('c-epoll'), 'not json');
    expect(readDraft('c-epoll')).toBeNull();
  });

  it('says so when the browser will not keep it', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    expect(saveDraft('c-epoll', 'text', null)).toBe(false);
  });

  it('keeps the last build of each server, to follow it again after a reload', () => {
    saveLastBuild('c-epoll', { variantId: 'v1', runId: 'r1' });
    expect(readLastBuild('c-epoll')).toEqual({ variantId: 'v1', runId: 'r1' });
    expect(readLastBuild('c-poll')).toBeNull();
    clearLastBuild('c-epoll');
    expect(readLastBuild('c-epoll')).toBeNull();
  });
});

describe('startingText', () => {
  const draft = { version: 1 as const, text: 'mine', from: null, savedAt: when.toISOString() };

  it('opens the draft that continues what was asked for', () => {
    expect(startingText(draft, null, 'original')).toEqual({ text: 'mine', fromDraft: true, setAside: null });
    expect(startingText({ ...draft, from: 'v1' }, 'v1', 'variant')).toEqual({ text: 'mine', fromDraft: true, setAside: null });
  });

  it('opens what was asked for, setting a draft of something else aside', () => {
    expect(startingText(draft, 'v1', 'variant')).toEqual({ text: 'variant', fromDraft: false, setAside: draft });
    expect(startingText({ ...draft, text: 'variant' }, 'v1', 'variant').setAside).toBeNull();
    expect(startingText(null, null, 'original')).toEqual({ text: 'original', fromDraft: false, setAside: null });
  });
});
