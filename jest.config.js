const { availableParallelism } = require('node:os');

/** One runner for unit, contract and end-to-end tests; SWC strips types fast, `npm run lint` type-checks. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

/** NestJS 12 (and openapi-backend's reference parser) ship ES modules only; Jest's CommonJS runtime needs them compiled like our own code. */
const swcForEsmPackages = ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
const ESM_PACKAGES = ['@nestjs', 'content-disposition', '@apidevtools/json-schema-ref-parser'];

const common = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc, '^.+\\.js$': swcForEsmPackages },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleNameMapper: {
    '^@app/(domain|event-store|database|config|read-models|credentials|payments|callbacks|callback-receiver|audit|infrastructure|scheduling|onboarding|callback-delivery|http|contract)$': '<rootDir>/libs/$1/src',
    '^@app/features/([a-z-]+)$': '<rootDir>/libs/features/src/$1',
  },
};

module.exports = {
  // The suite's one limit on time, for every test and hook: tests and their helpers wait for outcomes
  // with no deadline of their own (test/support/wait.ts). Far above what a healthy test takes on a
  // 2-core machine loaded by other work (the whole suite took 17 minutes at a load average of 9 to 17),
  // so only a hang reaches it. No file or test sets a shorter one.
  testTimeout: 30 * 60_000,
  // Most suites wait on PostgreSQL, Redis, timers or child processes more than they compute: two
  // workers per core keep the cores busy without starving each other. A count, not '200%': Jest reads
  // a percentage above 100 as a number of workers (every file at once, which overloads 2 cores).
  maxWorkers: 2 * availableParallelism(),
  projects: [
    // Unit and contract tests run on the sources alone, in memory or on PGlite: no server, no build.
    // test/docs checks the documentation against the code and itself: no service either.
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/chaos/**/*.spec.ts', '<rootDir>/test/docs/**/*.spec.ts', '<rootDir>/test/architecture/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '\\.integration\\.spec\\.ts$'],
    },
    // A library's specs that need the real PostgreSQL or Redis (*.integration.spec.ts): still no build.
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/libs/**/*.integration.spec.ts', '<rootDir>/apps/**/*.integration.spec.ts', '<rootDir>/chaos/**/*.integration.spec.ts'],
    },
    // Some end-to-end tests start the built service as processes: it is built once per run, first.
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/docs/', '<rootDir>/test/architecture/'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
    },
  ],
};
