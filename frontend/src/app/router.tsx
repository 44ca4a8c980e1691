import { createHashRouter } from 'react-router';

import { Loading } from '@/components/loading';
import { withStrings } from '@/lib/i18n';

import { AppLayout } from './layout/app-layout';
import { HomeRoute } from './routes/home';
import { NotFoundRoute } from './routes/not-found';
import { RouteErrorRoute } from './routes/route-error';

/**
 * Hash-based routes (/#/lessons/01-c10k-problem): the backend only has to serve
 * index.html and its assets at /, with no SPA fallback for deep links. A route that shows a
 * feature's own strings (the lab's, the editor's, a class's) fetches them with its code.
 */
export function createAppRouter() {
  return createHashRouter([
    {
      element: <AppLayout />,
      errorElement: <RouteErrorRoute />,
      hydrateFallbackElement: <Loading />,
      children: [
        { index: true, element: <HomeRoute /> },
        {
          path: 'lessons/:slug',
          // Markdown, charts and the highlighter load with the first lesson, not the home page.
          lazy: async () => ({ Component: (await import('./routes/lesson')).LessonRoute }),
        },
        {
          path: 'glossary',
          lazy: async () => ({ Component: (await import('./routes/glossary')).GlossaryRoute }),
        },
        // Classroom mode: an instructor's login and classes, a student's join form.
        {
          path: 'login',
          lazy: async () => ({ Component: (await import('./routes/login')).LoginRoute }),
        },
        {
          path: 'join',
          lazy: async () => ({ Component: (await import('./routes/join')).JoinRoute }),
        },
        {
          path: 'classes',
          lazy: async () => ({ Component: (await import('./routes/classes')).ClassesRoute }),
        },
        // A class as its instructor teaches it (roster, queue, board), and its board for everyone in it.
        {
          path: 'classes/:id',
          lazy: async () => ({ Component: (await withStrings(['classroom'], () => import('./routes/class'))).ClassRoute }),
        },
        {
          path: 'classes/:id/board',
          lazy: async () => ({ Component: (await withStrings(['classroom'], () => import('./routes/class-board'))).ClassBoardRoute }),
        },
        // Permalinks: one run or series with its charts, table and provenance, shareable in a class.
        {
          path: 'runs/:id',
          lazy: async () => ({ Component: (await withStrings(['bench'], () => import('./routes/run'))).RunRoute }),
        },
        {
          path: 'sweeps/:id',
          lazy: async () => ({ Component: (await withStrings(['bench'], () => import('./routes/sweep'))).SweepRoute }),
        },
        // A comparison of stored runs and series (a History comparison), in order.
        {
          path: 'compare',
          lazy: async () => ({ Component: (await withStrings(['bench'], () => import('./routes/compare'))).CompareRoute }),
        },
        // The lab (any experiment, its setup in the URL) and the learner's own history.
        {
          path: 'lab',
          lazy: async () => ({ Component: (await withStrings(['bench'], () => import('./routes/lab'))).LabRoute }),
        },
        {
          path: 'history',
          lazy: async () => ({ Component: (await withStrings(['bench'], () => import('./routes/history'))).HistoryRoute }),
        },
        // Edit and run: a C server's model file in the browser's editor (CodeMirror loads with
        // these routes only), built and checked in a sandbox, and a saved edit's own page.
        {
          path: 'edit',
          lazy: async () => ({ Component: (await withStrings(['edit'], () => import('./routes/edit'))).EditIndexRoute }),
        },
        {
          path: 'edit/:server',
          lazy: async () => ({ Component: (await withStrings(['edit'], () => import('./routes/edit'))).EditRoute }),
        },
        {
          path: 'variants/:id',
          lazy: async () => ({ Component: (await withStrings(['edit'], () => import('./routes/variant'))).VariantRoute }),
        },
        // Exercises: a statement and a starter file, answered in the editor and judged by a run.
        {
          path: 'exercises',
          lazy: async () => ({ Component: (await withStrings(['edit'], () => import('./routes/exercises'))).ExercisesRoute }),
        },
        {
          path: 'exercises/:slug',
          lazy: async () => ({ Component: (await withStrings(['edit'], () => import('./routes/exercises'))).ExerciseRoute }),
        },
        { path: '*', element: <NotFoundRoute /> },
      ],
    },
  ]);
}
