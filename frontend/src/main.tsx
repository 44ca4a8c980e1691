import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app/app';
import { applyStoredTheme } from './hooks/use-theme';
import { i18nReady } from './lib/i18n';
import './app/styles/global.css';

// Before the first render, so the page is never drawn in the other theme first.
applyStoredTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The chosen language's strings first, so the page is never drawn in the other language first.
// Not a top-level await: one in the entry turns off Rolldown's merging of shared chunks for the
// whole build, and every page then fetches more, smaller, less compressible files.
void i18nReady.then(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
