import { act, screen, within } from '@testing-library/react';

import { i18next } from '@/lib/i18n';
import { anAnswer, aVariant } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/render';

import { VariantList } from './variant-list';

const failedBuild = { status: 'failed' as const, failed: 'build', reason: 'it did not compile' };
const failedCheck = { status: 'failed' as const, failed: 'check:echo-sizes', reason: 'no reply' };

function api() {
  return mockFetch({
    'GET /api/exercises?lang=en': [{ slug: 'et-drain', title: 'Edge-triggered epoll', lesson: '05-epoll', server: 'c-epoll', summary: 's' }],
    'GET /api/exercises?lang=zh': [{ slug: 'et-drain', title: '边沿触发的 epoll', lesson: '05-epoll', server: 'c-epoll', summary: 's', language: 'zh' }],
    'GET /api/variants': [
      aVariant({ id: 'v1' }),
      aVariant({ id: 'v2', check: failedBuild }),
      aVariant({ id: 'v3', check: failedCheck }),
      aVariant({ id: 'v4', check: { status: 'running', failed: null, reason: null } }),
      anAnswer('v5', 'et-drain', 'passed'),
      { ...anAnswer('v6', 'et-drain', 'failed'), check: failedBuild },
      anAnswer('v7', 'et-drain', 'failed'),
    ],
  });
}

describe('VariantList', () => {
  it('says of each saved edit what it is and where its check stands, at a glance', async () => {
    api();
    renderWithProviders(<VariantList current="v2" />);
    const items = await screen.findAllByTestId('variant-item');
    expect(items.map((i) => i.dataset.state)).toEqual(['checked', 'buildFailed', 'checkFailed', 'checking', 'passed', 'buildFailed', 'failed']);
    expect(items[0]).toHaveTextContent(/^edit of c-epollStatus: compiled and checked · saved /);
    expect(items[1]).toHaveTextContent('did not compile');
    expect(items[1]).toHaveAttribute('aria-current', 'true');
    expect(items[2]).toHaveTextContent('compiled, failed a correctness check');
    expect(items[3]).toHaveTextContent('being checked');
    expect(await within(items[4]!).findByRole('link', { name: 'answer to Edge-triggered epoll' })).toHaveAttribute('href', '/variants/v5');
    expect(items[4]).toHaveTextContent('passed');
    expect(items[5]).toHaveTextContent(/answer to Edge-triggered epoll.*did not compile/);
    expect(items[6]).toHaveTextContent('failed');
    // The badge's colour says the same as its words: green, amber, red.
    const tone = (i: number) => items[i]!.querySelector('.variant-state')?.className;
    expect([tone(0), tone(1), tone(3)]).toEqual([
      'badge variant-state variant-state--ok',
      'badge variant-state variant-state--bad',
      'badge variant-state variant-state--pending',
    ]);
  });

  it('reads in Chinese, the exercise by its Chinese title', async () => {
    api();
    renderWithProviders(<VariantList />);
    const [, broken] = await screen.findAllByTestId('variant-item');
    await act(async () => {
      await i18next.changeLanguage('zh');
    });
    expect(broken).toHaveTextContent(/^c-epoll 的修改状态：\s?没有通过编译 · 保存于 11月2[45]日/);
    expect(await screen.findAllByRole('link', { name: '“边沿触发的 epoll”的答案' })).toHaveLength(3);
  });
});
