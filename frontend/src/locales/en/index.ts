/**
 * The English strings, one JSON file per namespace: `common` for the app's frame and shared
 * components, `errors` for the API's refusals (keyed by their `code`), then one per feature.
 * `src/locales/zh/` has the same files with the same keys (`locales.test.ts` holds the two to
 * it); i18next types `t()` from these.
 */
import bench from './bench.json';
import classroom from './classroom.json';
import common from './common.json';
import edit from './edit.json';
import errors from './errors.json';
import lessons from './lessons.json';
import people from './people.json';
import search from './search.json';
import sources from './sources.json';

export const en = { common, bench, classroom, edit, errors, lessons, people, search, sources };
export type Namespace = keyof typeof en;
