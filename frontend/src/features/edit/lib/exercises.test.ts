import { i18next } from '@/lib/i18n';
import { anAnswer as answer, lessons } from '@/testing/fixtures';

import { answersTo, exerciseStatus, groupByLesson, lessonName, verdictWord } from './exercises';

const t = i18next.getFixedT('en', 'edit');

describe('exerciseStatus', () => {
  const variants = [
    answer('v5', 'et-drain', 'failed'),
    answer('v4', 'et-drain', 'passed'),
    answer('v3', 'select-value-result', 'pending'),
    answer('v2', 'reap-every-child', 'failed'),
    answer('v1', null, null), // an edit in the free editor answers nothing
  ];

  it('is passed once any answer passed, even when a later one failed', () => {
    expect(exerciseStatus(variants, 'et-drain')).toBe('passed');
  });

  it('is tried while an answer is judged or after answers that failed', () => {
    expect(exerciseStatus(variants, 'select-value-result')).toBe('tried');
    expect(exerciseStatus(variants, 'reap-every-child')).toBe('tried');
  });

  it('is not tried with no answer (free edits of its server do not count)', () => {
    expect(exerciseStatus(variants, 'epollout-on-demand')).toBe('not-tried');
    expect(exerciseStatus([], 'et-drain')).toBe('not-tried');
  });

  it('lists an exercise’s answers newest first, each in a word', () => {
    expect(answersTo(variants, 'et-drain').map((v) => [v.id, verdictWord(v, t)])).toEqual([
      ['v5', 'failed'],
      ['v4', 'passed'],
    ]);
    expect(verdictWord(answer('v3', 'select-value-result', 'pending'), t)).toBe('being judged');
  });
});

describe('groupByLesson', () => {
  const exercise = (slug: string, lesson: string) => ({ slug, language: 'en' as const, lesson, title: slug, server: 'c-epoll', summary: '' });

  it('puts the exercises under their lessons in the course’s order, one it does not list last', () => {
    const [first, second] = lessons;
    const groups = groupByLesson(
      [exercise('b', second!.slug), exercise('x', '99-gone'), exercise('a', first!.slug), exercise('c', second!.slug)],
      lessons,
    );
    expect(groups.map((g) => [g.lesson, g.exercises.map((e) => e.slug)])).toEqual([
      [first!.slug, ['a']],
      [second!.slug, ['b', 'c']],
      ['99-gone', ['x']],
    ]);
    expect(lessonName(groups[0]!, t)).toBe(`Lesson ${first!.order}: ${first!.title}`);
    expect(lessonName(groups[2]!, t)).toBe('99-gone');
  });
});

describe('in Chinese', () => {
  it('names a lesson and a status in Chinese, the lesson’s title as the course gives it', async () => {
    await i18next.loadLanguages('zh');
    const zh = i18next.getFixedT('zh', 'edit');
    expect(lessonName({ lesson: '05-epoll', about: { order: 5, title: 'epoll：就绪队列' } }, zh)).toBe('第 5 课：epoll：就绪队列');
    expect(verdictWord(answer('v1', 'et-drain', 'pending'), zh)).toBe('评判中');
  });
});
