import { ApiError, buildQuery, errorFromResponse, HttpClient, type Fetch } from './http';

describe('errorFromResponse', () => {
  it('uses the spec error text and carries the protection code', () => {
    const error = errorFromResponse(429, { error: 'Kill switch engaged: hourly limit of $5 exceeded.', code: 'CIRCUIT_OPEN' });
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Kill switch engaged: hourly limit of $5 exceeded.');
    expect(error.code).toBe('CIRCUIT_OPEN');
    expect(error.status).toBe(429);
  });

  it('joins validation errors into one sentence list', () => {
    expect(errorFromResponse(422, { errors: ["Name can't be blank"] }).message).toBe("Name can't be blank");
    expect(errorFromResponse(422, { errors: ["Name can't be blank", 'Identifier is taken.'] }).message).toBe("Name can't be blank. Identifier is taken.");
  });

  it('falls back to a text by status for bodies without an error', () => {
    expect(errorFromResponse(404, undefined).message).toBe('Not found');
    expect(errorFromResponse(502, '<html>').message).toBe('Bad gateway: the API is unreachable');
    expect(errorFromResponse(418, {}).message).toBe('Request failed (HTTP 418)');
  });

  it('marks 401 as the end of the session', () => {
    expect(errorFromResponse(401, { error: 'Token expired' }).isUnauthenticated).toBe(true);
    expect(errorFromResponse(403, { error: 'Forbidden' }).isUnauthenticated).toBe(false);
  });
});

describe('buildQuery', () => {
  it('keeps defined values in order and encodes them', () => {
    expect(buildQuery({ project_id: 3, page: 2, status: undefined, q: 'a b&c', empty: '' })).toBe('?project_id=3&page=2&q=a+b%26c');
    expect(buildQuery({})).toBe('');
    expect(buildQuery(undefined)).toBe('');
  });
});

describe('HttpClient', () => {
  const respond = (status: number, body: unknown): Fetch => async () => new Response(body === undefined ? null : JSON.stringify(body), { status });

  it('sends JSON same-origin with the query and parses the answer', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const client = new HttpClient(async (url, init) => {
      calls.push({ url, init });
      return new Response(JSON.stringify({ id: 7 }), { status: 201 });
    });
    await expect(client.request('POST', '/api/v1/projects', { body: { project: { name: 'x' } }, query: { a: 1 } })).resolves.toEqual({ id: 7 });
    expect(calls[0].url).toBe('/api/v1/projects?a=1');
    expect(calls[0].init).toMatchObject({ method: 'POST', credentials: 'same-origin', body: '{"project":{"name":"x"}}', headers: { 'content-type': 'application/json' } });
  });

  it('answers undefined for 204', async () => {
    await expect(new HttpClient(respond(204, undefined)).request('DELETE', '/api/v1/keys/ak_1')).resolves.toBeUndefined();
  });

  it('tells listeners when a session request is refused, but not for a failed login', async () => {
    const client = new HttpClient(respond(401, { error: 'Token expired' }));
    const seen: string[] = [];
    client.onUnauthenticated((error) => seen.push(error.message));
    await expect(client.request('GET', '/api/v1/projects')).rejects.toThrow('Token expired');
    await expect(client.request('POST', '/api/v1/session', { body: {} })).rejects.toThrow('Token expired');
    expect(seen).toEqual(['Token expired']);
  });

  it('turns a network failure into an error the page can show', async () => {
    const client = new HttpClient(async () => {
      throw new TypeError('fetch failed');
    });
    await expect(client.request('GET', '/api/v1/projects')).rejects.toMatchObject({ status: 0, message: 'Network error: the dashboard server cannot be reached' });
  });
});
