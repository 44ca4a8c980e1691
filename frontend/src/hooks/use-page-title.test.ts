import { renderHook } from '@testing-library/react';

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
});
