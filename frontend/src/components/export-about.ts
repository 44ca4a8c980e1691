import { createContext, useContext } from 'react';

import type { ExportAbout } from '@/lib/export';

/**
 * What the result on show is (setup, host, date, link), for every export beneath it: a
 * feature that shows a result wraps its figures in `<ExportAboutContext value={about}>`, and
 * each chart's PNG/SVG and each table's CSV/JSON/Markdown carries it. None: files without it.
 */
export const ExportAboutContext = createContext<ExportAbout | null>(null);

export function useExportAbout(): ExportAbout | null {
  return useContext(ExportAboutContext);
}
