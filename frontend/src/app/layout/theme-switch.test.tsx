import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { THEME_KEY } from '@/hooks/use-theme';

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
