/**
 * Tool fidelity (spec: Trace → security.tool_fidelity_score, Limits → below 0.8 signals invalid
 * tool calls): how well the tool calls a model made match the tools it was offered.
 *
 * Per call, with the offered tool's `parameters` read as a small JSON-schema subset:
 * - a name that matches no offered function tool scores 0 (an invented tool);
 * - otherwise the score is passed checks / checks (1 when there is nothing to check), where the
 *   checks are: every `required` property is present; every argument declared in `properties`
 *   has a matching `type` (string, number, integer, boolean, object, array, null, or a list of
 *   them) and, when the schema has an `enum`, is one of its values; every argument not declared
 *   is an error when `additionalProperties` is false. Nested objects and array items with their
 *   own schema are checked the same way, up to a few levels;
 * - arguments that are not an object score 0.
 * A step's score is the mean over its calls; the trace's is the mean over scored steps (1.0 when
 * no step called a tool).
 *
 * An MCP tool (`type: "mcp"`) exposes tools whose names are not known in advance: when one is
 * offered, a call to a name that is not a declared function tool cannot be judged and scores 1.
 */

const MAX_DEPTH = 4;

export interface ToolCallLike {
  name: string;
  arguments: unknown;
}

interface OfferedTools {
  functions: Map<string, unknown>;
  hasMcp: boolean;
}

/** Reads `{tools: [...]}` (or a bare array) in the function-calling format of the spec. */
export function parseOfferedTools(offered: unknown): OfferedTools {
  const list = Array.isArray(offered) ? offered : isRecord(offered) && Array.isArray(offered['tools']) ? offered['tools'] : [];
  const functions = new Map<string, unknown>();
  let hasMcp = false;
  for (const tool of list) {
    if (!isRecord(tool)) continue;
    if (tool['type'] === 'mcp') {
      hasMcp = true;
      continue;
    }
    // {type: 'function', function: {name, parameters}} or a bare {name, parameters}.
    const definition = isRecord(tool['function']) ? tool['function'] : tool;
    if (typeof definition['name'] === 'string' && definition['name'] !== '') functions.set(definition['name'], definition['parameters']);
  }
  return { functions, hasMcp };
}

/** Mean fidelity of the calls of one step; null when the step made no tool call. */
export function toolFidelityScore(toolCalls: ToolCallLike[], offered: unknown): number | null {
  if (toolCalls.length === 0) return null;
  const tools = parseOfferedTools(offered);
  const scores = toolCalls.map((call) => callFidelity(call, tools));
  return round(scores.reduce((sum, score) => sum + score, 0) / scores.length);
}

function callFidelity(call: ToolCallLike, tools: OfferedTools): number {
  if (!tools.functions.has(call.name)) return tools.hasMcp ? 1 : 0;
  const schema = tools.functions.get(call.name);
  if (!isRecord(call.arguments)) return 0;
  const tally = { passed: 0, total: 0 };
  checkObject(call.arguments, isRecord(schema) ? schema : {}, tally, 0);
  return tally.total === 0 ? 1 : tally.passed / tally.total;
}

function checkObject(value: Record<string, unknown>, schema: Record<string, unknown>, tally: { passed: number; total: number }, depth: number): void {
  const properties = isRecord(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? schema['required'].filter((name): name is string => typeof name === 'string') : [];
  for (const name of required) count(tally, value[name] !== undefined);
  for (const [name, argument] of Object.entries(value)) {
    const propertySchema = properties[name];
    if (propertySchema === undefined) {
      if (schema['additionalProperties'] === false) count(tally, false);
      continue;
    }
    if (isRecord(propertySchema)) checkValue(argument, propertySchema, tally, depth + 1);
  }
}

function checkValue(value: unknown, schema: Record<string, unknown>, tally: { passed: number; total: number }, depth: number): void {
  const types = typeof schema['type'] === 'string' ? [schema['type']] : Array.isArray(schema['type']) ? schema['type'].filter((t): t is string => typeof t === 'string') : [];
  if (types.length > 0) {
    const matches = types.some((type) => hasType(value, type));
    count(tally, matches);
    if (!matches) return;
  }
  if (Array.isArray(schema['enum'])) count(tally, schema['enum'].some((option) => sameValue(option, value)));
  if (depth >= MAX_DEPTH) return;
  if (isRecord(value) && (isRecord(schema['properties']) || Array.isArray(schema['required']) || schema['additionalProperties'] === false)) {
    checkObject(value, schema, tally, depth);
  } else if (Array.isArray(value) && isRecord(schema['items'])) {
    for (const item of value) checkValue(item, schema['items'], tally, depth + 1);
  }
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'boolean': return typeof value === 'boolean';
    case 'object': return isRecord(value);
    case 'array': return Array.isArray(value);
    case 'null': return value === null;
    default: return true; // an unknown type name is the schema's problem, not the model's
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && a !== null && JSON.stringify(a) === JSON.stringify(b));
}

function count(tally: { passed: number; total: number }, passed: boolean): void {
  tally.total += 1;
  if (passed) tally.passed += 1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
