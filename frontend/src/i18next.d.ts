import 'i18next';

import type { en } from './locales/en';

// t() keys and their namespaces are checked against the English strings.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: typeof en;
  }
}
