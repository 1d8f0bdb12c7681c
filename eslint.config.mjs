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
  // The HTTP kit the REST edge and the server-rendered faces share: guards, pipes, problems, the envelope.
  ['http'],
  // What the REST edge and the faces share of each feature: commands, queries, request bodies, answers' shapes.
  ['contract'],
  // Each feature's application: its command and query handlers and the Nest module that provides them, one
  // folder per feature (FEATURE_FLOORS below), mounted by the REST edge and the faces alike.
  ['features'],
];

const SHIPPED = { ignores: ['**/*.spec.ts', '**/testing/**'] };
const noApps = { group: ['**/apps/**', '@app/api', '@app/api/**'], message: 'Libraries never import an app: what an app and a library share belongs in a library.' };

/**
 * The rules of one table of floors, lowest first: the code of each name imports only what stands on the
 * floors below its own (`refused` turns the names beside and above it into a pattern of imports), and never an app.
 */
function floorRules(floors, { files, refused, message }) {
  return floors.flatMap((floor, level) =>
    floor.map((name) => {
      const notBelow = floors.slice(level).flat().filter((other) => other !== name);
      return {
        files: [files(name)],
        ...SHIPPED,
        rules: { 'no-restricted-imports': ['error', { patterns: [noApps, ...(notBelow.length ? [{ ...refused(notBelow), message: message(name, level) }] : [])] }] },
      };
    }),
  );
}

const libraryFloorRules = floorRules(FLOORS, {
  files: (library) => `libs/${library}/**/*.ts`,
  refused: (others) => ({ group: others.flatMap((other) => [`@app/${other}`, `**/${other}/src`, `**/${other}/src/**`]) }),
  message: (library, level) => `${library} is on floor ${level}: it imports only the libraries below it (eslint.config.mjs FLOORS).`,
});

/** The worker and the CLI wire libraries; neither runs the API's files nor the faces'. */
const appRules = ['worker', 'cli'].map((app) => ({
  files: [`apps/${app}/**/*.ts`],
  ...SHIPPED,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/api/**', '../../api/**', '../api/**', '**/apps/web/**', '../../web/**', '../web/**'], message: `apps/${app} imports libraries, never the API's files nor the faces'.` }] }] },
}));

/**
 * The server-rendered faces (apps/web) and the REST edge (apps/api) are two wings over the same libraries:
 * neither imports the other's files. What both need belongs in a library (libs/http, libs/contract, …).
 * One file meets both, WINGS_MEET below: it picks the wings a process serves by its ROLE.
 */
const FACES_WING = /(^|\/)web\/src(\/|$)/.source;
const noFaces = { regex: FACES_WING, message: "apps/api never imports the faces' wing (apps/web): what both use belongs in a library." };
const wingRules = [
  {
    files: ['apps/web/**/*.ts'],
    ...SHIPPED,
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: /(^|\/)api\/src(\/|$)/.source, message: "apps/web imports libraries and command classes, never the API's files (apps/api)." }] }] },
  },
  { files: ['apps/api/src/**/*.ts'], ...SHIPPED, rules: { 'no-restricted-imports': ['error', { patterns: [noFaces] }] } },
];

/**
 * apps/api's folders, lowest first (docs/concepts/architecture.md): a folder's code imports only folders on
 * the floors below its own, never one beside or above it, so no arrow runs back up. The files at the root
 * (the REST edge's wing, app.factory, main, banner) wire every folder and stand above them all.
 */
const API_FLOORS = [
  // What is the REST edge's own of HTTP (the rest is the HTTP kit, libs/http): the live-money guard, the operations' examples.
  ['http'],
  // The REST features. One builds on those below it: an account shows its payout schedule, a balance and an
  // order their payouts, a commission the account it applies to, an escrow its order and commission, the audit
  // API an escrow as of an instant. (Payables have no route of their own: libs/features/src/payables.)
  ['callbacks', 'events', 'merchants', 'payments', 'payouts', 'test-clocks', 'transfers', 'webhook-endpoints'],
  ['accounts', 'balances', 'orders'],
  ['commissions'],
  ['escrows'],
  ['audit'],
];
const API_ROOT = ['rest-edge', 'app.factory', 'main', 'banner'];
/** The one file where the REST edge and the faces meet: the wings an HTTP process serves by its ROLE. */
const WINGS_MEET = 'apps/api/src/app.factory.ts';
/** The deepest folder under apps/api/src a file sits in (http/openapi/examples/…), with room to grow. */
const API_DEPTH = 5;

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * libs/features' folders, lowest first, as the REST edge's own (API_FLOORS): a feature's handlers build only on
 * the features below it, and a feature is imported by its entry, `@app/features/<feature>`.
 */
const FEATURE_FLOORS = [
  ['callbacks', 'events', 'merchants', 'payables', 'payments', 'payouts', 'test-clocks', 'transfers', 'webhook-endpoints'],
  ['accounts', 'balances', 'orders'],
  ['commissions'],
  ['escrows'],
  ['audit'],
];
const featureFloorRules = floorRules(FEATURE_FLOORS, {
  files: (feature) => `libs/features/src/${feature}/**/*.ts`,
  refused: (others) => ({ regex: `(^@app/features/|(^|/)\\.\\./)(${others.map(escapeRegex).join('|')})(/|$)` }),
  message: (feature, level) => `libs/features/src/${feature} is on floor ${level} of the features: it imports only the features below it (eslint.config.mjs FEATURE_FLOORS).`,
});

const apiFloorRules = API_FLOORS.flatMap((floor, level) =>
  floor.flatMap((folder) => {
    const notBelow = [...API_FLOORS.slice(level).flat().filter((other) => other !== folder), ...API_ROOT];
    // A file `depth` folders below apps/api/src reaches another top folder with exactly `depth` steps up.
    return Array.from({ length: API_DEPTH }, (_, index) => index + 1).map((depth) => ({
      files: [`apps/api/src/${folder}/${'*/'.repeat(depth - 1)}*.ts`],
      ...SHIPPED,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: `^(\\.\\./){${depth}}(${notBelow.map(escapeRegex).join('|')})(/|$)`,
                message: `apps/api/src/${folder} is on floor ${level}: it imports only the folders below it (eslint.config.mjs API_FLOORS).`,
              },
              noFaces,
            ],
          },
        ],
      },
    }));
  }),
);

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
  ...libraryFloorRules,
  ...appRules,
  ...wingRules,
  ...apiFloorRules,
  ...featureFloorRules,
  // Where the wings meet, the faces are mounted by their entry (apps/web/src/index.ts), nothing deeper.
  {
    files: [WINGS_MEET],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: /(^|\/)web\/src\/./.source, message: `${WINGS_MEET} mounts the faces by their entry (apps/web/src/index.ts) only.` }] }] },
  },
);
