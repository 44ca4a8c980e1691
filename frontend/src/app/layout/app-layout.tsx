import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, ScrollRestoration } from 'react-router';

import { HealthBanner } from '@/components/health-banner';
import { AccountNav, SignedOutNotice } from '@/features/people';
import { SearchBox } from '@/features/search';

import { LanguageSwitch } from './language-switch';
import { StudentClass } from './student-class';
import { ThemeSwitch } from './theme-switch';
import { useScrollToHash } from './use-scroll-to-hash';

/**
 * Where the header ends on screen, as `--site-header-bottom` on the app: a student's follow
 * panel starts there, so it never covers the header's controls (language, theme), and climbs
 * to the top as the header scrolls away. Read on scroll and when the header's height changes.
 */
function useHeaderBottom() {
  const app = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLElement>(null);
  useEffect(() => {
    const root = app.current;
    const bar = header.current;
    if (!root || !bar) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      root.style.setProperty('--site-header-bottom', `${Math.max(0, bar.getBoundingClientRect().bottom)}px`);
    };
    const soon = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    measure();
    // jsdom has no ResizeObserver; every browser the course supports has.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(soon);
    resized?.observe(bar);
    window.addEventListener('scroll', soon, { passive: true });
    return () => {
      resized?.disconnect();
      window.removeEventListener('scroll', soon);
      cancelAnimationFrame(frame);
    };
  }, []);
  return { app, header };
}

export function AppLayout() {
  useScrollToHash();
  const { t } = useTranslation();
  const { app, header } = useHeaderBottom();
  return (
    <div className="app" ref={app}>
      <a className="skip-link" href="#main" onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        {t('app.skipLink')}
      </a>
      <header className="site-header" ref={header}>
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
