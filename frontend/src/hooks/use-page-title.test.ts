import { act, renderHook } from '@testing-library/react';

import { i18next } from '@/lib/i18n';

import { usePageTitle } from './use-page-title';

interface Props {
  page: string | null | undefined;
}

describe('usePageTitle', () => {
  it('names the page, the course alone for null, and waits while the page is unknown', () => {
    document.title = 'before';
    const initialProps: Props = { page: undefined };
    const { rerender } = renderHook(
      ({ page }: Props) => {
        usePageTitle(page);
      },
      { initialProps },
    );
    expect(document.title).toBe('before');
    rerender({ page: 'epoll internals' });
    expect(document.title).toBe('epoll internals · C10K Lab');
    rerender({ page: null });
    expect(document.title).toBe('C10K Lab');
  });

  it('writes the title again when the reader switches language', async () => {
    const initialProps: Props = { page: null };
    const { rerender } = renderHook(
      ({ page }: Props) => {
        usePageTitle(page);
      },
      { initialProps },
    );
    expect(document.title).toBe('C10K Lab');
    document.title = 'changed by hand';
    await act(() => i18next.changeLanguage('zh'));
    expect(document.title).toBe('C10K Lab');
    rerender({ page: '术语表' });
    expect(document.title).toBe('术语表 · C10K Lab');
  });
});
