import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { i18next, LANGUAGE_STORAGE_KEY } from '@/lib/i18n';
import { renderWithProviders } from '@/testing/render';

import { LanguageSwitch } from './language-switch';

describe('LanguageSwitch', () => {
  it('switches to Chinese, remembers it, and sets <html lang>', async () => {
    renderWithProviders(<LanguageSwitch />);
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect(select).toHaveValue('en');
    await userEvent.selectOptions(select, '简体中文');
    expect(await screen.findByRole('combobox', { name: '语言' })).toHaveValue('zh');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('zh');
    expect(document.documentElement.lang).toBe('zh-Hans');
    await act(async () => { await i18next.changeLanguage('en'); });
    expect(document.documentElement.lang).toBe('en');
  });
});
