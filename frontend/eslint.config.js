// ESLint flat config. Besides the usual TypeScript/React rules it enforces the
// bulletproof-react layering: src/app → src/features → shared (components, hooks,
// lib, testing), and no feature importing another feature. Import cycles are madge's
// (`npm run cycles`, part of `npm run lint`): import/no-cycle walked the whole graph again
// from every file and took two thirds of the lint's time (110 s of 170).
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import i18next from 'eslint-plugin-i18next';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = ['bench', 'classroom', 'edit', 'lessons', 'people', 'search', 'sources'];
const SHARED = ['./src/components', './src/hooks', './src/lib', './src/testing'];

// JSX attributes that are never read by a person: markup, routing, test hooks, SVG geometry.
// Everything else a component renders (text, aria-label, title, placeholder, alt) goes through
// i18next's t(): no string of the interface is left hard-coded.
const UNREAD_ATTRIBUTES = [
  'className', 'style', 'type', 'key', 'id', 'width', 'height', 'htmlFor', 'name', 'value', 'role',
  'to', 'href', 'rel', 'target', 'src', 'lang', 'dir', 'method', 'accept', 'download', 'loading',
  'inputMode', 'autoComplete', 'step', 'min', 'max', 'scope', 'form', 'encType', 'sizes', 'srcSet',
  'aria-hidden', 'aria-live', 'aria-current', 'aria-haspopup', 'aria-expanded', 'aria-controls',
  'aria-describedby', 'aria-labelledby', 'aria-invalid', 'aria-busy', 'aria-atomic', 'aria-relevant',
  'viewBox', 'd', 'fill', 'stroke', 'strokeWidth', 'strokeLinecap', 'strokeLinejoin', 'points',
  'xmlns', 'preserveAspectRatio', 'textAnchor', 'dominantBaseline', 'transform',
  'datasetIdKey', 'variant', 'size', 'layout', 'mode', 'kind', 'as', 'testId', 'anchor', 'route',
  'data-.*',
];

const crossFeatureZones = FEATURES.map((feature) => ({
  target: `./src/features/${feature}`,
  from: './src/features',
  except: [`./${feature}`],
  message: 'A feature must not import another feature; compose them in src/app.',
}));

export default defineConfig([
  // Generated from the API's OpenAPI document (make contract), not written here.
  globalIgnores(['dist', 'e2e/artifacts', 'node_modules', 'src/lib/api/generated']),
  {
    files: ['**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      tseslint.configs.strictTypeChecked,
      tseslint.configs.stylisticTypeChecked,
      reactHooks.configs.flat['recommended-latest'],
      reactRefresh.configs.vite,
      importPlugin.flatConfigs.recommended,
      importPlugin.flatConfigs.typescript,
    ],
    languageOptions: {
      ecmaVersion: 2022,
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    settings: {
      'import/resolver': {
        typescript: { project: './tsconfig.app.json' },
        node: true,
      },
    },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...crossFeatureZones,
            {
              target: './src/features',
              from: './src/app',
              message: 'Features must not import from the app layer.',
            },
            {
              target: SHARED,
              from: ['./src/features', './src/app'],
              message: 'Shared code (components, hooks, lib) must not import features or the app.',
            },
          ],
        },
      ],
      'import/order': [
        'warn',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          pathGroups: [{ pattern: '@/**', group: 'internal' }],
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      'import/no-unresolved': 'error',
      // What TypeScript checks already (a name or namespace member that a module does not
      // export is a type error), and slow: typescript-eslint advises turning them off.
      'import/named': 'off',
      'import/namespace': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
    },
  },
  {
    files: ['src/**/*.tsx'],
    ignores: ['src/**/*.test.tsx', 'src/testing/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        { mode: 'jsx-only', 'jsx-attributes': { exclude: UNREAD_ATTRIBUTES }, 'jsx-components': { exclude: ['Trans', 'code', 'kbd', 'samp'] } },
      ],
    },
  },
  {
    files: ['src/**/*.test.{ts,tsx}', 'src/testing/**'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'react-refresh/only-export-components': 'off',
    },
  },
  {
    files: ['vite.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: globals.node },
  },
]);
