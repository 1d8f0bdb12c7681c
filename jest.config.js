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

/** NestJS 12 ships ES modules only; Jest's CommonJS runtime needs them compiled like our own code. */
const swcForEsmPackages = ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
const ESM_PACKAGES = ['@nestjs', 'content-disposition'];

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc, '^.+\\.js$': swcForEsmPackages },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts', '<rootDir>/chaos/**/*.spec.ts'],
  moduleNameMapper: {
    '^@app/(domain|event-store|database|config|read-models|merchants|payments|callbacks|callback-receiver|audit)$': '<rootDir>/libs/$1/src',
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 30000,
};
