/**
 * The English strings every page may show from its first paint (the frame, the home page, a
 * lesson and its source listings), bundled with the app so no page waits for them. The others
 * (`bench`, `classroom`, `edit`, `errors`) are a feature's own: each comes with its feature
 * (src/lib/i18n.ts, `withStrings`), in English as in Chinese, and a lesson's first load does
 * not carry the lab's, the editor's or the classroom's words.
 */
import common from './common.json';
import lessons from './lessons.json';
import people from './people.json';
import search from './search.json';
import sources from './sources.json';

export const firstPaint = { common, lessons, people, search, sources };
