import { DEPLOYED_MAX_OLD_SPACE_MB, ProductionStack } from '@gateway/testing';
import { commandMaxOldSpaceMb, composeCommand, type ChartValues, type ComposeFile } from './deploy-checks';
import { parseYaml, readText, serviceApps } from './inventory';

// One V8 old-space cap wherever the apps run as deployed: the chart's global default, the
// compose file's default and ProductionStack's (the benchmark and integration tests).
const values = parseYaml(readText('deploy/helm/gateway/values.yaml'), 'values.yaml') as ChartValues;
const compose = parseYaml(readText('docker-compose.yml'), 'docker-compose.yml') as ComposeFile;

describe("the deployed heap cap (V8's --max-old-space-size)", () => {
  it("is the same in the chart, compose and ProductionStack's default", () => {
    expect(DEPLOYED_MAX_OLD_SPACE_MB).toBe(values.global.maxOldSpaceMb);
    const composeCaps = Object.fromEntries(serviceApps().map((app) => [app, commandMaxOldSpaceMb(composeCommand(compose.services[app] ?? {}))]));
    expect(composeCaps).toEqual(Object.fromEntries(serviceApps().map((app) => [app, DEPLOYED_MAX_OLD_SPACE_MB])));
  });

  it('ProductionStack passes it to every app by default, before the per-app flags (which win)', () => {
    const stack = new ProductionStack({ root: '/nowhere', sourceMaps: false, nodeArgs: { edge: ['--cpu-prof'] } });
    expect(stack.nodeArgs('ledger')).toEqual([`--max-old-space-size=${DEPLOYED_MAX_OLD_SPACE_MB}`]);
    expect(stack.nodeArgs('edge')).toEqual([`--max-old-space-size=${DEPLOYED_MAX_OLD_SPACE_MB}`, '--cpu-prof']);
    expect(stack.nodeArgs('edge', false)).toEqual([`--max-old-space-size=${DEPLOYED_MAX_OLD_SPACE_MB}`]);
    expect(new ProductionStack({ root: '/nowhere' }).nodeArgs('router')).toEqual(['--enable-source-maps', `--max-old-space-size=${DEPLOYED_MAX_OLD_SPACE_MB}`]);
  });

  it('ProductionStack takes another cap, or none, and refuses a bad one', () => {
    expect(new ProductionStack({ root: '/nowhere', sourceMaps: false, maxOldSpaceMb: 256 }).nodeArgs('edge')).toEqual(['--max-old-space-size=256']);
    expect(new ProductionStack({ root: '/nowhere', sourceMaps: false, maxOldSpaceMb: null }).nodeArgs('edge')).toEqual([]);
    for (const bad of [0, -128, 16, 127.5]) expect(() => new ProductionStack({ root: '/nowhere', maxOldSpaceMb: bad })).toThrow(/maxOldSpaceMb must be an integer ≥ 32/);
  });
});
