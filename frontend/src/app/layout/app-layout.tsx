import { Link, Outlet, ScrollRestoration } from 'react-router';

import { HealthBanner } from '@/components/health-banner';
import { AccountNav } from '@/features/people';
import { SearchBox } from '@/features/search';

import { LanguageSwitch } from './language-switch';
import { StudentClass } from './student-class';
import { ThemeSwitch } from './theme-switch';
import { useScrollToHash } from './use-scroll-to-hash';

export function AppLayout() {
  useScrollToHash();
  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <Link to="/" className="site-header__brand">
            <svg viewBox="0 0 32 32" width="26" height="26" aria-hidden="true">
              <rect width="32" height="32" rx="6" fill="currentColor" />
              <path d="M6 22 L11 14 L16 18 L21 9 L26 12" fill="none" strokeWidth="3"
                strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            C10K Lab
          </Link>
          <span className="site-header__tagline">Linux server I/O models, measured</span>
          <SearchBox />
          <nav className="site-header__nav" aria-label="Course">
            <Link to="/lab">Lab</Link>
            <Link to="/history">History</Link>
            <Link to="/edit">Edit</Link>
            <Link to="/exercises">Exercises</Link>
            <Link to="/glossary">Glossary</Link>
            <AccountNav />
          </nav>
          <LanguageSwitch />
          <ThemeSwitch />
        </div>
      </header>
      <StudentClass />
      <HealthBanner />
      <main id="main" className="site-main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="site-footer">
        C10K Lab · benchmarks run in sandboxed containers on this machine
      </footer>
      <ScrollRestoration />
    </div>
  );
}
