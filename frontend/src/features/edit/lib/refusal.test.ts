import { i18next } from '@/lib/i18n';

import { describeRefusal, refusalText } from './refusal';

const t = i18next.getFixedT('en', 'edit');

describe('describeRefusal', () => {
  it('says the 429’s words and when to try again', () => {
    const busy = describeRefusal({ message: 'you already have 3 builds waiting or under way (at most 3); wait for one to finish', status: 429, retryAfterS: 10 });
    expect(busy).toMatchObject({ tooMany: true, retryAfterS: 10 });
    expect(refusalText(busy, t)).toBe('you already have 3 builds waiting or under way (at most 3); wait for one to finish. Try again in 10 s.');
    expect(refusalText(describeRefusal({ message: 'too many.', status: 429, retryAfterS: null }), t)).toBe('too many. Try again once one has finished.');
  });

  it('ends a Chinese 429’s sentence with its own stop, adding none', async () => {
    await i18next.changeLanguage('zh');
    const busy = describeRefusal({ message: '你已有 3 个构建在排队或进行中（最多 3 个）；请等其中一个完成。', status: 429, retryAfterS: 10 });
    expect(refusalText(busy, i18next.getFixedT('zh', 'edit'))).toBe('你已有 3 个构建在排队或进行中（最多 3 个）；请等其中一个完成。 请在 10 s 后重试。');
  });

  it('says a 422 or an unreachable backend as it is', () => {
    const tooBig = describeRefusal({ message: 'source: 70,000 bytes; an edited file may be at most 65,536', status: 422 });
    expect(tooBig).toEqual({ message: 'source: 70,000 bytes; an edited file may be at most 65,536', tooMany: false, retryAfterS: null });
    expect(refusalText(tooBig, t)).toBe('source: 70,000 bytes; an edited file may be at most 65,536');
    const unreachable = describeRefusal(new Error('Cannot reach the backend'));
    expect(unreachable).toEqual({ message: 'Cannot reach the backend', tooMany: false, retryAfterS: null });
    expect(refusalText(unreachable, t)).toBe('Cannot reach the backend');
  });
});
