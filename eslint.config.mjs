import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/dist', '**/node_modules', '**/generated/**', '**/.nx', 'tmp/**', '**/*.cjs', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-imports': ['error', { paths: [{ name: '@gateway/testing', message: 'Test helpers belong in tests only.' }] }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            // type:testing is reachable from apps only through test files (no-restricted-imports below).
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:util', 'type:data', 'type:contract', 'type:testing', 'type:client'] },
            { sourceTag: 'type:launcher', onlyDependOnLibsWithTags: ['type:util', 'type:data', 'type:contract'] },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:util', 'type:contract'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util', 'type:contract'] },
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util', 'type:data', 'type:contract'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:edge', onlyDependOnLibsWithTags: ['scope:shared', 'scope:edge'] },
            { sourceTag: 'scope:control-plane', onlyDependOnLibsWithTags: ['scope:shared', 'scope:control-plane'] },
            { sourceTag: 'scope:ledger', onlyDependOnLibsWithTags: ['scope:shared', 'scope:ledger'] },
            { sourceTag: 'scope:guardrail', onlyDependOnLibsWithTags: ['scope:shared', 'scope:guardrail'] },
            { sourceTag: 'scope:router', onlyDependOnLibsWithTags: ['scope:shared', 'scope:router'] },
            { sourceTag: 'scope:provider-proxy', onlyDependOnLibsWithTags: ['scope:shared', 'scope:provider-proxy'] },
            { sourceTag: 'scope:analytics', onlyDependOnLibsWithTags: ['scope:shared', 'scope:analytics'] },
            { sourceTag: 'scope:insights', onlyDependOnLibsWithTags: ['scope:shared', 'scope:insights'] },
            { sourceTag: 'scope:replay-worker', onlyDependOnLibsWithTags: ['scope:shared', 'scope:replay-worker'] },
            { sourceTag: 'scope:mock-provider', onlyDependOnLibsWithTags: ['scope:shared', 'scope:mock-provider'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
            { sourceTag: 'scope:migrator', onlyDependOnLibsWithTags: ['scope:shared', 'scope:migrator'] },
            { sourceTag: 'scope:deploy', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:agent', onlyDependOnLibsWithTags: ['scope:shared', 'scope:agent'] },
            { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:shared', 'scope:dashboard'] },
            // The public client library depends on nothing of ours (its tests use the test stack).
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: ['type:testing'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/test/**/*.ts', '**/*.contract.ts', '**/*.fixture.ts', 'libs/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off', 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/scripts/**/*.ts', '**/eval/**/*.ts', '**/bench/**/*.ts', 'tools/**/*.ts'],
    rules: { 'no-console': 'off', 'no-restricted-imports': 'off' },
  },
];
