// One-off helper that writes project.json / tsconfig.json / jest configs for every project.
// Kept in the repo so a new service gets the same shape: `node tools/scripts/scaffold-projects.mjs`.
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const apps = {
  edge: { type: 'app', kind: 'http' },
  'control-plane': { type: 'app', kind: 'grpc', prisma: true },
  ledger: { type: 'app', kind: 'grpc', prisma: true },
  guardrail: { type: 'app', kind: 'grpc' },
  router: { type: 'app', kind: 'grpc' },
  'provider-proxy': { type: 'app', kind: 'grpc' },
  analytics: { type: 'app', kind: 'nats', prisma: true },
  insights: { type: 'app', kind: 'nats', prisma: true },
  'replay-worker': { type: 'app', kind: 'nats' },
  'mock-provider': { type: 'app', kind: 'http' },
  gateway: { type: 'app', kind: 'launcher' },
};
const libs = {
  proto: { dir: 'libs/proto', tags: ['scope:shared', 'type:contract'] },
  config: { dir: 'libs/platform/config', tags: ['scope:shared', 'type:util'] },
  logging: { dir: 'libs/platform/logging', tags: ['scope:shared', 'type:util'] },
  errors: { dir: 'libs/platform/errors', tags: ['scope:shared', 'type:util'] },
  grpc: { dir: 'libs/platform/grpc', tags: ['scope:shared', 'type:util'] },
  bus: { dir: 'libs/platform/bus', tags: ['scope:shared', 'type:util'] },
  db: { dir: 'libs/platform/db', tags: ['scope:shared', 'type:data'] },
  telemetry: { dir: 'libs/platform/telemetry', tags: ['scope:shared', 'type:util'] },
  http: { dir: 'libs/platform/http', tags: ['scope:shared', 'type:util'] },
  testing: { dir: 'libs/testing', tags: ['scope:shared', 'type:testing'] },
  'safe-regex': { dir: 'libs/safe-regex', tags: ['scope:shared', 'type:util'] },
};

function write(path, content, overwrite = false) {
  if (existsSync(path) && !overwrite) return;
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2) + '\n');
}

function common(dir, name, projectType, tags, extraTargets = {}) {
  const up = relative(dir, '.') || '.';
  mkdirSync(join(dir, 'src'), { recursive: true });
  write(join(dir, 'tsconfig.json'), {
    extends: `${up}/tsconfig.base.json`,
    include: ['src/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', 'eval/**/*.ts'],
  });
  write(join(dir, 'jest.config.cjs'), `const { jestProject } = require('${up}/jest.preset.cjs');\nmodule.exports = jestProject(__dirname, 'unit');\n`);
  write(join(dir, 'jest.int.config.cjs'), `const { jestProject } = require('${up}/jest.preset.cjs');\nmodule.exports = jestProject(__dirname, 'integration');\n`);
  write(join(dir, 'project.json'), {
    name,
    $schema: `${up}/node_modules/nx/schemas/project-schema.json`,
    sourceRoot: `${dir}/src`,
    projectType,
    tags,
    targets: {
      typecheck: { executor: 'nx:run-commands', options: { command: `tsc -p ${dir}/tsconfig.json` } },
      lint: { executor: 'nx:run-commands', options: { command: `eslint ${dir}` } },
      test: { executor: 'nx:run-commands', options: { command: `jest -c ${dir}/jest.config.cjs --passWithNoTests` } },
      integration: { executor: 'nx:run-commands', options: { command: `jest -c ${dir}/jest.int.config.cjs --passWithNoTests` } },
      ...extraTargets,
    },
  });
}

for (const [name, app] of Object.entries(apps)) {
  const dir = `apps/${name}`;
  const extra = {
    bundle: { executor: 'nx:run-commands', outputs: [`{workspaceRoot}/dist/apps/${name}`], options: { command: `node tools/build/bundle.mjs ${name}` } },
    build: { executor: 'nx:noop', dependsOn: ['typecheck', 'bundle'] },
  };
  if (app.prisma) {
    extra.generate = {
      executor: 'nx:run-commands',
      inputs: [`{projectRoot}/prisma/schema.prisma`],
      outputs: [`{projectRoot}/src/generated/prisma`],
      options: { command: `node tools/scripts/prisma-generate.mjs ${dir}` },
    };
  }
  common(dir, name, 'application', [`scope:${name}`, app.kind === 'launcher' ? 'type:launcher' : 'type:app'], extra);
}
for (const [name, lib] of Object.entries(libs)) {
  const extra = { build: { executor: 'nx:noop', dependsOn: ['typecheck'] } };
  if (name === 'proto') {
    extra.generate = {
      executor: 'nx:run-commands',
      inputs: ['{workspaceRoot}/proto/**/*', '{workspaceRoot}/buf.yaml', '{workspaceRoot}/buf.gen.yaml', '{workspaceRoot}/tools/scripts/generate-proto.mjs'],
      outputs: ['{projectRoot}/src/generated'],
      options: { command: 'node tools/scripts/generate-proto.mjs' },
    };
  }
  common(lib.dir, name, 'library', lib.tags, extra);
}
