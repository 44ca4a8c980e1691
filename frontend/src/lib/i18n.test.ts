import { en } from '@/locales/en';
import { firstPaint } from '@/locales/en/first-paint';

import { i18next, LATER_NAMESPACES, withStrings } from './i18n';

describe('the strings each page loads', () => {
  it('bundles some namespaces and fetches every other one, each exactly once', () => {
    expect([...Object.keys(firstPaint), ...LATER_NAMESPACES].sort()).toEqual(Object.keys(en).sort());
  });

  it('hands over a module only once its strings are there, in the language shown', async () => {
    await i18next.changeLanguage('zh');
    try {
      const loaded = await withStrings(['edit'], () => Promise.resolve('the module'));
      expect(loaded).toBe('the module');
      expect(i18next.hasResourceBundle('zh', 'edit')).toBe(true);
      expect(i18next.hasResourceBundle('en', 'edit')).toBe(true);
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
