import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { THEME_KEY } from '@/hooks/use-theme';
import { i18next } from '@/lib/i18n';

import { ThemeSwitch } from './theme-switch';

afterEach(() => {
  delete document.documentElement.dataset.theme;
});

it('switches the theme from a labelled select and keeps the choice', async () => {
  render(<ThemeSwitch />);
  const select = screen.getByRole('combobox', { name: 'Theme' });
  expect(select).toHaveValue('system');
  expect(document.documentElement.dataset.theme).toBe('light'); // jsdom's system is light

  await userEvent.selectOptions(select, 'Dark');
  expect(select).toHaveValue('dark');
  expect(document.documentElement.dataset.theme).toBe('dark');
  expect(JSON.parse(window.localStorage.getItem(THEME_KEY) ?? 'null')).toEqual({ version: 1, preference: 'dark' });
});

it('names the theme and each choice in Chinese', async () => {
  render(<ThemeSwitch />);
  await act(() => i18next.changeLanguage('zh'));
  const select = screen.getByRole('combobox', { name: '主题' });
  expect([...select.querySelectorAll('option')].map((o) => o.textContent)).toEqual(['跟随系统', '浅色', '深色']);
  await userEvent.selectOptions(select, '深色');
  expect(document.documentElement.dataset.theme).toBe('dark');
});
