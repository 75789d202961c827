// The project's linter (`npm run lint`, also run by `npm test`): ESLint's and typescript-eslint's
// recommended rules plus the React hooks rules for the web app. Not type-aware, so a whole-tree run
// stays well under a minute on 2 cores; `tsc` (scripts/typecheck.sh) does the type checking.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**', '**/build/**', '**/.react-router/**', '**/artifacts/**', '**/dist/**', '**/coverage/**',
      '**/*.d.ts', '.tmp/**', 'data/**', 'apps/web/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // The code talks to JSON-RPC, the chain SDK and untyped provider answers; `any` is a deliberate boundary there.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Input sanitisers strip control characters on purpose (names, texts, file names).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
