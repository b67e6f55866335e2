import { parseOfferedTools, toolFidelityScore } from './tool-fidelity.calculator';

const weather = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather of a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' }, unit: { type: 'string', enum: ['c', 'f'] } },
      required: ['city'],
      additionalProperties: false,
    },
  },
};
const search = { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } };
const offered = { tools: [weather, search] };

describe('toolFidelityScore', () => {
  it('is null when the step made no tool call', () => {
    expect(toolFidelityScore([], offered)).toBeNull();
  });

  it('scores a call that matches its schema 1', () => {
    expect(toolFidelityScore([{ name: 'get_weather', arguments: { city: 'Paris', days: 3, unit: 'c' } }], offered)).toBe(1);
  });

  it('scores an invented tool name 0', () => {
    expect(toolFidelityScore([{ name: 'launch_rockets', arguments: {} }], offered)).toBe(0);
  });

  it('scores every call 0 when no tool was offered at all', () => {
    expect(toolFidelityScore([{ name: 'get_weather', arguments: { city: 'Paris' } }], { tools: [] })).toBe(0);
  });

  it('lowers the score for a missing required argument', () => {
    // checks: required city (fail), days integer (pass)
    expect(toolFidelityScore([{ name: 'get_weather', arguments: { days: 2 } }], offered)).toBe(0.5);
  });

  it('lowers the score for a wrong argument type and an enum miss', () => {
    // required city (pass), city string (fail: number), unit string (pass), unit enum (fail)
    expect(toolFidelityScore([{ name: 'get_weather', arguments: { city: 42, unit: 'kelvin' } }], offered)).toBe(0.5);
  });

  it('counts unknown arguments only when additionalProperties is false', () => {
    // weather: required city (pass), city string (pass), extra (fail) → 2/3
    expect(toolFidelityScore([{ name: 'get_weather', arguments: { city: 'Oslo', extra: true } }], offered)).toBeCloseTo(0.6667, 4);
    // search allows additional properties: query string (pass) → 1
    expect(toolFidelityScore([{ name: 'search', arguments: { query: 'x', page: 2 } }], offered)).toBe(1);
  });

  it('scores non-object arguments 0', () => {
    expect(toolFidelityScore([{ name: 'search', arguments: 'query=x' }], offered)).toBe(0);
  });

  it('averages the calls of a step', () => {
    expect(toolFidelityScore([{ name: 'search', arguments: { query: 'a' } }, { name: 'made_up', arguments: {} }], offered)).toBe(0.5);
  });

  it('checks nested objects and array items', () => {
    const tools = {
      tools: [
        {
          type: 'function',
          function: {
            name: 'book',
            parameters: {
              type: 'object',
              properties: {
                guest: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
                nights: { type: 'array', items: { type: 'integer' } },
              },
            },
          },
        },
      ],
    };
    expect(toolFidelityScore([{ name: 'book', arguments: { guest: { name: 'Ann' }, nights: [1, 2] } }], tools)).toBe(1);
    // guest object (pass), required name (fail), nights array (pass), items: 1 (pass), 'x' (fail) → 3/5
    expect(toolFidelityScore([{ name: 'book', arguments: { guest: {}, nights: [1, 'x'] } }], tools)).toBe(0.6);
  });

  it('accepts type lists such as ["string", "null"]', () => {
    const tools = { tools: [{ name: 'note', parameters: { properties: { text: { type: ['string', 'null'] } } } }] };
    expect(toolFidelityScore([{ name: 'note', arguments: { text: null } }], tools)).toBe(1);
    expect(toolFidelityScore([{ name: 'note', arguments: { text: 3 } }], tools)).toBe(0);
  });

  it('gives unknown names the benefit of the doubt when an MCP server is offered', () => {
    const tools = { tools: [search, { type: 'mcp', server_label: 'files', server_url: 'https://mcp.example', require_approval: 'never' }] };
    expect(toolFidelityScore([{ name: 'read_file', arguments: { path: '/a' } }], tools)).toBe(1);
  });

  it('scores a declared tool without a parameters schema 1', () => {
    expect(toolFidelityScore([{ name: 'ping', arguments: {} }], { tools: [{ type: 'function', function: { name: 'ping' } }] })).toBe(1);
  });
});

describe('parseOfferedTools', () => {
  it('reads the wrapped and the bare list form and ignores junk', () => {
    expect([...parseOfferedTools({ tools: [weather, { nope: 1 }, 'x'] }).functions.keys()]).toEqual(['get_weather']);
    expect([...parseOfferedTools([search]).functions.keys()]).toEqual(['search']);
    expect(parseOfferedTools(undefined).functions.size).toBe(0);
  });
});
