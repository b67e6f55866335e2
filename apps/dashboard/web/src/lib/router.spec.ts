import { href, matchRoute, parseHash } from './router';

const ROUTES = [
  { name: 'traces', pattern: '/traces' },
  { name: 'trace', pattern: '/traces/:id' },
  { name: 'project', pattern: '/projects/:id/settings' },
] as const;

describe('parseHash', () => {
  it('splits the fragment into path and query', () => {
    expect(parseHash('#/traces?status=completed&page=2')).toEqual({ path: '/traces', query: { status: 'completed', page: '2' } });
    expect(parseHash('')).toEqual({ path: '/', query: {} });
    expect(parseHash('#//traces//abc/')).toEqual({ path: '/traces/abc', query: {} });
  });

  it('keeps encoded segments encoded', () => {
    expect(parseHash('#/accept/a%2Fb').path).toBe('/accept/a%2Fb');
  });
});

describe('href', () => {
  it('builds a fragment and leaves out empty values', () => {
    expect(href('/traces', { status: 'failed', page: 2, per_page: undefined, q: '' })).toBe('#/traces?status=failed&page=2');
    expect(href('/stats')).toBe('#/stats');
  });
});

describe('matchRoute', () => {
  it('matches patterns and decodes parameters', () => {
    expect(matchRoute(ROUTES, '/traces')).toEqual({ name: 'traces', params: {} });
    expect(matchRoute(ROUTES, '/traces/0b6f%20x')).toEqual({ name: 'trace', params: { id: '0b6f x' } });
    expect(matchRoute(ROUTES, '/projects/12/settings')).toEqual({ name: 'project', params: { id: '12' } });
  });

  it('answers undefined for unknown paths', () => {
    expect(matchRoute(ROUTES, '/projects/12')).toBeUndefined();
    expect(matchRoute(ROUTES, '/nope')).toBeUndefined();
  });
});
