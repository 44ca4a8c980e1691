import { describe, expect, it } from 'vitest';

import { i18next } from '@/lib/i18n';

import { editName, type EditFacts } from './edit-names';

const en = i18next.getFixedT('en', 'bench');
const title = (slug: string) => (slug === 'et-drain' ? 'Edge-triggered epoll' : slug);

// When it was saved reads "14:43" today and "25 Nov, 14:43" another day: matched loosely.
function anEdit(owner: EditFacts['owner'], exercise: string | null = null): EditFacts {
  return { server: 'c-epoll', exercise, saved_at: '2026-11-25T09:43:00Z', check: { status: 'done' }, owner };
}

const MINE = { mine: true, name: null, instructor: false };
const ADAS = { mine: false, name: 'Ada', instructor: false };
const INSTRUCTORS = { mine: false, name: null, instructor: true };
const SOMEONES = { mine: false, name: null, instructor: false };
const SAVED = String.raw`\(saved [^)]+\)`;
const SAVED_ZH = '（保存于 [^）]+）';

describe('editName says whose an edit is', () => {
  it('calls the reader’s own edit theirs', () => {
    expect(editName(anEdit(MINE), title, en, 'en')).toMatch(new RegExp(`^your edit of c-epoll ${SAVED}$`));
    expect(editName(anEdit(MINE, 'et-drain'), title, en, 'en')).toMatch(new RegExp(`^your answer to Edge-triggered epoll ${SAVED}$`));
  });

  it('names a classmate’s edit by the name the class knows, not as the reader’s', () => {
    expect(editName(anEdit(ADAS), title, en, 'en')).toMatch(new RegExp(`^Ada's edit of c-epoll ${SAVED}$`));
    expect(editName(anEdit(ADAS, 'et-drain'), title, en, 'en')).toMatch(new RegExp(`^Ada's answer to Edge-triggered epoll ${SAVED}$`));
  });

  it('calls the instructor’s edit theirs, and one of someone the reader knows no name of someone else’s', () => {
    expect(editName(anEdit(INSTRUCTORS), title, en, 'en')).toMatch(new RegExp(`^the instructor's edit of c-epoll ${SAVED}$`));
    expect(editName(anEdit(SOMEONES), title, en, 'en')).toMatch(new RegExp(`^someone else's edit of c-epoll ${SAVED}$`));
    expect(editName(anEdit(SOMEONES, 'et-drain'), title, en, 'en')).toMatch(new RegExp(`^someone else's answer to Edge-triggered epoll ${SAVED}$`));
  });

  it('says whose it is in Chinese too', async () => {
    await i18next.changeLanguage('zh'); // loads its strings; each test starts in English again
    const zh = i18next.getFixedT('zh', 'bench');
    expect(editName(anEdit(ADAS), title, zh, 'zh')).toMatch(new RegExp(`^Ada 修改的 c-epoll${SAVED_ZH}$`));
    expect(editName(anEdit(INSTRUCTORS), title, zh, 'zh')).toMatch(new RegExp(`^讲师修改的 c-epoll${SAVED_ZH}$`));
    expect(editName(anEdit(SOMEONES, 'et-drain'), title, zh, 'zh')).toMatch(new RegExp(`^别人对“Edge-triggered epoll”的答案${SAVED_ZH}$`));
  });
});
