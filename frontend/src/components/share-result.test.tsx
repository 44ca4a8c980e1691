import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { i18next } from '@/lib/i18n';

import { ShareResult } from './share-result';

afterEach(() => {
  vi.restoreAllMocks();
});

const link = `${window.location.origin}${window.location.pathname}#/runs/3f2a`;

describe('ShareResult', () => {
  it('copies the result’s absolute link and shows it', async () => {
    const user = userEvent.setup();
    const written = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    render(<ShareResult to="/runs/3f2a" />);
    await user.click(screen.getByRole('button', { name: 'Share this result' }));
    expect(written).toHaveBeenCalledWith(link);
    expect(screen.getByRole('status')).toHaveTextContent('Link copied:');
    expect(screen.getByRole('link', { name: 'This result’s link' })).toHaveAttribute('href', link);
  });

  it('says so in Chinese when the clipboard is refused, the link left to copy by hand', async () => {
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    render(<ShareResult to="/sweeps/9" />);
    await act(() => i18next.changeLanguage('zh'));
    await user.click(screen.getByRole('button', { name: '分享此结果' }));
    expect(screen.getByRole('status')).toHaveTextContent('浏览器拒绝了剪贴板');
    expect(screen.getByRole('link', { name: '此结果的链接' })).toHaveTextContent('#/sweeps/9');
  });
});
