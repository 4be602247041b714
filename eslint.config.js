import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import fs from 'node:fs';

/**
 * Import direction, enforced here: shared ← server core (config, db, http, auth, realtime,
 * mail, secrets) ← features ← app; on the web side shared ← lib and components ← features ←
 * app, and no client feature imports another (a piece two features need moves to components/
 * or lib/). Each rule catches both `#server/…`/`#client/…` and relative spellings.
 */
const clientFeatures = fs.readdirSync('src/client/features');
const SERVER_CORE = [
  'src/server/config.ts',
  'src/server/config-from-env.ts',
  'src/server/secrets.ts',
  'src/server/secret-key-rotation.ts',
  'src/server/private-files.ts',
  'src/server/db/**',
  'src/server/http/**',
  'src/server/auth/**',
  'src/server/realtime/**',
  'src/server/mail/**',
  'src/server/ssh/**',
];
const belowFeatures = {
  regex: '^#server/(features/|app\\.ts)|^(\\.\\./)+(features/|app\\.ts)|^\\./(features/|app\\.ts)',
  message:
    'The server core (config, db, http, auth, realtime, mail, ssh, secrets) is below the features and the app.',
};
const noClient = { regex: '^#client/|/client/', message: 'The server never imports web code.' };

export default tseslint.config(
  {
    ignores: [
      'dist',
      'data',
      '.tools',
      'node_modules',
      'test-results',
      'playwright-report',
      'bench/results',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^#server/|/server/', message: 'The web app never reaches into the server.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/lib/**', 'src/client/components/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^#server/|/server/', message: 'The web app never reaches into the server.' },
            {
              regex: '^#client/(features|app)/|^(\\.\\./)+(features|app)/',
              message: 'lib/ and components/ are below the features and the app.',
            },
          ],
        },
      ],
    },
  },
  ...clientFeatures.map((feature) => {
    const others = clientFeatures.filter((f) => f !== feature).join('|');
    return {
      files: [`src/client/features/${feature}/**`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: '^#server/|/server/',
                message: 'The web app never reaches into the server.',
              },
              {
                regex: `^#client/(app/|features/(${others})/)|^(\\.\\./)+(app|${others})/`,
                message:
                  'A feature imports no other feature and not the app: move what both need to components/ or lib/.',
              },
            ],
          },
        ],
      },
    };
  }),
  {
    // A rule of its own name, so that it holds beside the import directions above.
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: ['src/client/lib/confirm-modal-host.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@mantine/modals',
              allowTypeImports: true,
              message:
                "Use openConfirmModal from #client/lib/confirm-modal.tsx: Mantine's ModalsProvider loads on first use, and its own modals.* calls would be lost until then.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      // Shared code runs in both Node and the browser.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^node:|^#server/|^#client/|/server/|/client/',
              message: 'Shared code runs in Node and the browser.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noClient] }] },
  },
  {
    files: SERVER_CORE,
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [noClient, belowFeatures],
        },
      ],
    },
  },
  {
    // HTTP plumbing knows routes by their config, not by what the auth routes are.
    files: ['src/server/http/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noClient,
            belowFeatures,
            { regex: '^#server/auth/|^(\\.\\./)+auth/', message: 'http/ is below auth/.' },
          ],
        },
      ],
    },
  },
  {
    // A rule of its own name, so that it holds beside the import directions above. The test
    // helpers include a cheaper password hashing (testing/quick-password-hashing.ts).
    files: ['src/server/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      'src/server/testing/**',
      // The soak harness (`npm run soak`) starts servers and signs people up as the tests do.
      'src/server/reliability/soak.ts',
      'src/server/cli/soak.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^#server/testing/|^(\\.\\./)+testing/|^\\./testing/',
              message: 'The server never runs test helpers.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**', 'e2e/**', 'bench/**', 'src/server/cli/**'],
    rules: { 'no-console': 'off' },
  },
);
