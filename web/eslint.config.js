import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Every folder under src/features, so a new feature is covered the day it is added.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'test-results', 'playwright-report', 'e2e/.tmp'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2022, globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  // Features do not import each other: shared code lives in src/shared.
  ...features.map((feature) => ({
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: features
                .filter((f) => f !== feature)
                .flatMap((f) => [`@/features/${f}`, `@/features/${f}/*`, `**/features/${f}/*`]),
              message: 'Features do not import each other; move shared code to src/shared.',
            },
            { group: ['@/app', '@/app/*'], message: 'Features do not import the app shell.' },
          ],
        },
      ],
    },
  })),
  // Shared code serves the features and the shell; it never reaches back into them.
  {
    files: ['src/shared/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features', '@/features/*', '**/features/*', '@/app', '@/app/*'],
              message: 'Shared code does not import features or the app shell.',
            },
          ],
        },
      ],
    },
  },
  // The double-click guard (src/shared/ui/guarded.ts) on every button that submits or writes.
  {
    files: ['src/**/*.tsx'],
    ignores: [
      'src/shared/ui/SubmitButton.tsx',
      'src/shared/ui/GuardedModal.tsx',
      'src/shared/ui/GuardedPopconfirm.tsx',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "JSXOpeningElement[name.name='Button']:has(JSXAttribute[name.name='htmlType'][value.value='submit'])",
          message: 'Submit buttons are SubmitButton (@/shared/ui/guarded): the double-click guard.',
        },
        {
          selector:
            "JSXOpeningElement[name.name='Button']:has(JSXAttribute[name.name='onClick'] CallExpression[callee.property.name=/^mutate(Async)?$/])",
          message:
            'A button that writes is a SubmitButton (@/shared/ui/guarded): the double-click guard.',
        },
        {
          selector: "JSXOpeningElement[name.name='Modal']:has(JSXAttribute[name.name='onOk'])",
          message:
            'A dialog with onOk is a GuardedModal (@/shared/ui/guarded): the double-click guard.',
        },
        {
          selector: "JSXOpeningElement[name.name='Popconfirm']",
          message: 'Use GuardedPopconfirm (@/shared/ui/guarded): the double-click guard.',
        },
      ],
    },
  },
  // The service worker (docs/pwa.md): plain JavaScript the build copies as it is.
  {
    files: ['sw/**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2022, sourceType: 'script', globals: globals.serviceworker },
  },
  {
    files: ['e2e/**/*.mjs', 'scripts/**/*.mjs', '*.js', '*.mjs'],
    extends: [js.configs.recommended],
    // e2e code also runs inside the page (page.evaluate): browser globals too
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.node, ...globals.browser } },
  },
);
