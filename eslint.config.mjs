import tseslint from 'typescript-eslint';

/**
 * The libraries' floors, lowest first (docs/concepts/architecture.md): a library's code imports only
 * libraries on the floors below its own, never one beside or above it, and never an app. Tests may
 * compose floors (an integration test of a reader over the tables a projection writes), so the rule
 * covers what ships.
 */
const FLOORS = [
  ['config', 'database', 'domain'],
  ['event-store', 'credentials', 'callbacks', 'scheduling'],
  ['audit', 'callback-receiver'],
  // The typed client's package carries the receiver's verifier with it.
  ['read-models', 'client'],
  ['infrastructure'],
  ['onboarding', 'payments', 'callback-delivery'],
];

const SHIPPED = { ignores: ['**/*.spec.ts', '**/testing/**'] };
const noApps = { group: ['**/apps/**', '@app/api', '@app/api/**'], message: 'Libraries never import an app: what an app and a library share belongs in a library.' };

const floorRules = FLOORS.flatMap((floor, level) =>
  floor.map((library) => {
    const notBelow = FLOORS.slice(level).flat().filter((other) => other !== library);
    return {
      files: [`libs/${library}/**/*.ts`],
      ...SHIPPED,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              noApps,
              ...(notBelow.length ? [{ group: notBelow.flatMap((other) => [`@app/${other}`, `**/${other}/src`, `**/${other}/src/**`]), message: `${library} is on floor ${level}: it imports only the libraries below it (eslint.config.mjs FLOORS).` }] : []),
            ],
          },
        ],
      },
    };
  }),
);

/** The worker and the CLI wire libraries; neither runs the API's files. */
const appRules = ['worker', 'cli'].map((app) => ({
  files: [`apps/${app}/**/*.ts`],
  ...SHIPPED,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/api/**', '../../api/**', '../api/**'], message: `apps/${app} imports libraries, never the API's files.` }] }] },
}));

export default tseslint.config(
  { ignores: ['libs/client/src/generated/**', 'dist/**', 'libs/*/dist/**', 'node_modules/**', 'coverage/**', 'data/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  ...floorRules,
  ...appRules,
);
