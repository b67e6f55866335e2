// Shared jest settings: swc for speed, tsconfig paths mapped by hand (jest has no paths support).
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  const from = '^' + alias.replace('/*', '/(.*)') + '$';
  moduleNameMapper[from] = path.join(__dirname, target.replace('/*', '/$1'));
}

function jestProject(projectDir, kind) {
  const integration = kind === 'integration';
  return {
    rootDir: projectDir,
    testEnvironment: 'node',
    transform: {
      '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
    },
    moduleFileExtensions: ['ts', 'js', 'json'],
    moduleNameMapper,
    testMatch: integration ? ['<rootDir>/**/*.int-spec.ts'] : ['<rootDir>/**/*.spec.ts'],
    testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    testTimeout: integration ? 60_000 : 10_000,
    maxWorkers: integration ? 1 : '50%',
  };
}

module.exports = { jestProject, moduleNameMapper };
