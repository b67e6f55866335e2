import type { CallContext } from './types';
import { projectOfCall } from './project-scope';

const key = { principal: { kind: 'api_key', keyId: 'ak_1', projectId: 7, organizationId: 1 } } as CallContext;
const service = { principal: { kind: 'service' } } as CallContext;

describe('projectOfCall', () => {
  it('binds an API key to its own project; another one is NOT_FOUND', () => {
    expect(projectOfCall(key, 0)).toBe(7);
    expect(projectOfCall(key, 7)).toBe(7);
    expect(() => projectOfCall(key, 8)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('lets a service name the project, which is required, and checks the key it acts for', () => {
    expect(projectOfCall(service, 9)).toBe(9);
    expect(() => projectOfCall(service, 0)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    expect(projectOfCall(service, 9, { actor: { keyProjectId: 9 } })).toBe(9);
    const foreign = () => projectOfCall(service, 9, { actor: { keyProjectId: 3 }, notOwned: () => Object.assign(new Error('foreign'), { code: 'VALIDATION_FAILED' }) as never });
    expect(foreign).toThrow('foreign');
  });
});
