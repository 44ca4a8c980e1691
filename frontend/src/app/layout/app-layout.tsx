import { useTranslation } from 'react-i18next';
import { Link, Outlet, ScrollRestoration } from 'react-router';

import { HealthBanner } from '@/components/health-banner';
import { AccountNav, SignedOutNotice } from '@/features/people';
import { SearchBox } from '@/features/search';

import { LanguageSwitch } from './language-switch';
import { StudentClass } from './student-class';
import { ThemeSwitch } from './theme-switch';
import { useScrollToHash } from './use-scroll-to-hash';

export function AppLayout() {
  useScrollToHash();
  const { t } = useTranslation();
  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        {t('app.skipLink')}
      </a>
      <header className="site-header">
        <div className="bar-inner site-header__inner">
          <Link to="/" className="site-header__brand">
            <svg viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
              <rect width="32" height="32" rx="6" fill="currentColor" />
              <path d="M6 22 L11 14 L16 18 L21 9 L26 12" fill="none" strokeWidth="3"
                strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            {t('app.name')}
          </Link>
          <span className="site-header__tagline">{t('app.tagline')}</span>
          <SearchBox />
          <nav className="site-header__nav" aria-label={t('app.nav.label')}>
            <Link to="/lab">{t('app.nav.lab')}</Link>
            <Link to="/history">{t('app.nav.history')}</Link>
            <Link to="/edit">{t('app.nav.edit')}</Link>
            <Link to="/exercises">{t('app.nav.exercises')}</Link>
            <Link to="/glossary">{t('app.nav.glossary')}</Link>
            <AccountNav />
          </nav>
          <LanguageSwitch />
          <ThemeSwitch />
        </div>
      </header>
      <SignedOutNotice />
      <StudentClass />
      <HealthBanner />
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">{t('app.footer')}</footer>
      <ScrollRestoration />
    </div>
  );
}
