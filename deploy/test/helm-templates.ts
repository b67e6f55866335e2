import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseYaml } from './inventory';

// Static reading of Go templates: no rendering. What can be checked without helm is checked
// here — delimiters and blocks balance, includes resolve, value paths exist, and the literal
// YAML around the template actions (the "skeleton") parses into the expected manifests.

export interface TemplateFile {
  /** Relative to templates/, e.g. `edge/deployment.yaml`. */
  path: string;
  text: string;
}

export function templateFiles(chartDir: string): TemplateFile[] {
  const dir = join(chartDir, 'templates');
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .map((file) => ({ path: relative(dir, file), text: readFileSync(file, 'utf8') }));
}

const COMMENT = /\{\{-?\s*\/\*[\s\S]*?\*\/\s*-?\}\}/g;
const ACTION = /\{\{-?([\s\S]*?)-?\}\}/g;

export function stripComments(text: string): string {
  return text.replace(COMMENT, '');
}

/** The body of each action, e.g. `if $app.enabled`, `end`, `include "x" .`. */
export function actions(text: string): string[] {
  return [...stripComments(text).matchAll(ACTION)].map((match) => match[1].trim());
}

/** Problems with delimiters and block nesting (if/range/with/define/block … end, else inside one). */
export function syntaxProblems(text: string): string[] {
  const problems: string[] = [];
  const body = stripComments(text);
  const opened = body.split('{{').length - 1;
  const closed = body.split('}}').length - 1;
  if (opened !== closed) problems.push(`${opened} "{{" but ${closed} "}}"`);
  const stack: string[] = [];
  for (const action of actions(text)) {
    const keyword = /^(if|range|with|define|block|else|end)\b/.exec(action)?.[1];
    if (!keyword) continue;
    if (keyword === 'end') {
      if (!stack.pop()) problems.push('"end" without an open block');
    } else if (keyword === 'else') {
      const open = stack.at(-1);
      if (!open || !['if', 'with', 'range'].includes(open)) problems.push('"else" outside if/with/range');
    } else {
      stack.push(keyword);
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  return problems;
}

export function defines(text: string): Map<string, string> {
  const result = new Map<string, string>();
  const body = stripComments(text);
  const pattern = /\{\{-?\s*define\s+"([^"]+)"\s*-?\}\}/g;
  for (const match of body.matchAll(pattern)) {
    // The body runs to the "end" that closes this define.
    let depth = 1;
    const rest = body.slice((match.index ?? 0) + match[0].length);
    const inner = /\{\{-?\s*(if|range|with|define|block|end)\b[\s\S]*?-?\}\}/g;
    let end = rest.length;
    for (const token of rest.matchAll(inner)) {
      depth += token[1] === 'end' ? -1 : 1;
      if (depth === 0) {
        end = token.index ?? rest.length;
        break;
      }
    }
    result.set(match[1], rest.slice(0, end));
  }
  return result;
}

export interface Include {
  template: string;
  /** The app name when called as (dict "root" $ "name" "<app>"). */
  app?: string;
}

export function includes(text: string): Include[] {
  return [...stripComments(text).matchAll(/include\s+"([^"]+)"(?:\s+\(dict\s+"root"\s+\$\s+"name"\s+"([^"]+)"\))?/g)].map((match) => ({ template: match[1], app: match[2] }));
}

/** `.Values.a.b` paths (also via `$.Values` or `$root.Values`). */
export function valuesPaths(text: string): string[][] {
  return [...stripComments(text).matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)].map((match) => match[1].slice(1).split('.'));
}

/** Fields read from a template variable, e.g. `$app.database.secretKey` → `database`. */
export function variableFields(text: string, variable: string): string[] {
  const pattern = new RegExp(`\\${variable}\\.([A-Za-z_][A-Za-z0-9_]*)`, 'g');
  return [...new Set([...stripComments(text).matchAll(pattern)].map((match) => match[1]))].sort();
}

/**
 * The literal YAML of a template: lines that are only actions are dropped, inline actions
 * become `X`, and of an if/else only the first branch is kept (both would repeat keys).
 * Parsed with duplicate keys as errors, so indentation and structure mistakes in the
 * hand-written parts show up.
 */
export function skeleton(text: string, label: string): unknown {
  const kept: string[] = [];
  const branch: ('keep' | 'skip')[] = [];
  const skipping = () => branch.includes('skip');
  for (const line of stripComments(text).split('\n')) {
    const lineActions = [...line.matchAll(ACTION)].map((match) => match[1].trim());
    const onlyActions = line.replace(ACTION, '').trim() === '' && lineActions.length > 0;
    if (onlyActions) {
      for (const action of lineActions) {
        const keyword = /^(if|range|with|define|block|else|end)\b/.exec(action)?.[1];
        if (keyword === 'else') branch[branch.length - 1] = 'skip';
        else if (keyword === 'end') branch.pop();
        else if (keyword) branch.push('keep');
      }
      continue;
    }
    if (!skipping() && line.trim() !== '') kept.push(line.replace(ACTION, 'X'));
  }
  return parseYaml(kept.join('\n'), label);
}

/** Walks a parsed YAML value: `at(doc, 'spec', 'template', 0)`. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
  return path.reduce<unknown>((current, key) => (current !== null && typeof current === 'object' ? (current as Record<string | number, unknown>)[key] : undefined), value);
}

// ---- rendering selected lines ----
// Enough of Go templates to see how a value reaches one line (e.g. the container command)
// without helm: fields, variables, parentheses, pipes and the functions below. Numbers read from
// values are float64 in Helm (plain JS numbers here, printed as Go prints a float64: 1e+06);
// `int` gives an integer (a bigint here, printed plainly).

const UNKNOWN = Symbol('unknown');

type Token = { kind: 'open' | 'close' | 'pipe' | 'string' | 'number' | 'word'; text: string };

function tokenize(expression: string): Token[] {
  return [...expression.matchAll(/\(|\)|\||"(?:[^"\\]|\\.)*"|[^\s()|]+/g)].map(([text]) => {
    if (text === '(') return { kind: 'open', text };
    if (text === ')') return { kind: 'close', text };
    if (text === '|') return { kind: 'pipe', text };
    if (text.startsWith('"')) return { kind: 'string', text };
    if (/^-?\d+(\.\d+)?$/.test(text)) return { kind: 'number', text };
    return { kind: 'word', text };
  });
}

/** Go template truth: false, 0, nil, "" and empty collections are empty (sprig's `default`). */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === 0n || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

const isMap = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const FUNCTIONS: Record<string, (...args: unknown[]) => unknown> = {
  ternary: (whenTrue, whenFalse, condition) => {
    if (typeof condition !== 'boolean') throw new Error(`ternary: the condition is not a boolean (${String(condition)})`);
    return condition ? whenTrue : whenFalse;
  },
  hasKey: (map, key) => {
    if (!isMap(map)) throw new Error('hasKey: not a map');
    return Object.hasOwn(map, String(key));
  },
  index: (value, ...keys) => keys.reduce((current, key) => (isMap(current) || Array.isArray(current) ? (current as Record<string, unknown>)[String(key)] : undefined), value),
  default: (fallback, given) => (isEmpty(given) ? fallback : given),
  int: (value) => {
    if (value === undefined || value === null) return 0n;
    if (typeof value === 'bigint') return value;
    const number = Number(value);
    return Number.isFinite(number) ? BigInt(Math.trunc(number)) : 0n;
  },
  quote: (...values) => values.map((value) => JSON.stringify(format(value))).join(' '),
};

/** How Go's fmt prints a value in a template: float64 as %v (shortest, exponent from 1e+06 on). */
export function format(value: unknown): string {
  if (value === undefined || value === null) return '<no value>';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (value === 0) return '0';
    const [mantissa, exponentText] = value.toExponential().split('e');
    const exponent = Number(exponentText);
    const digits = mantissa.replace(/[-.]/g, '').length;
    const precision = 6 > digits && digits >= exponent + 1 ? digits : 6;
    if (exponent < -4 || exponent >= precision) return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
    return String(value);
  }
  if (typeof value === 'object') throw new Error('cannot print a map or list');
  return String(value);
}

class Evaluator {
  private position = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly dot: unknown,
    private readonly variables: Map<string, unknown>,
  ) {}

  run(): unknown {
    const value = this.pipeline();
    if (this.position < this.tokens.length) throw new Error(`unexpected ${this.tokens[this.position].text}`);
    return value;
  }

  private pipeline(): unknown {
    let value = this.command(undefined, false);
    while (this.tokens[this.position]?.kind === 'pipe') {
      this.position += 1;
      value = this.command(value, true);
    }
    return value;
  }

  private command(piped: unknown, hasPiped: boolean): unknown {
    const first = this.tokens[this.position];
    if (!first) throw new Error('empty command');
    if (first.kind === 'word' && /^[A-Za-z]/.test(first.text) && !['true', 'false', 'nil'].includes(first.text)) {
      const fn = FUNCTIONS[first.text];
      if (!fn) throw new Error(`unsupported function ${first.text}`);
      this.position += 1;
      const args: unknown[] = [];
      while (this.position < this.tokens.length && !['pipe', 'close'].includes(this.tokens[this.position].kind)) args.push(this.operand());
      if (hasPiped) args.push(piped);
      return fn(...args);
    }
    if (hasPiped) throw new Error(`cannot pipe into ${first.text}`);
    return this.operand();
  }

  private operand(): unknown {
    const token = this.tokens[this.position++];
    if (token.kind === 'open') {
      const value = this.pipeline();
      if (this.tokens[this.position++]?.kind !== 'close') throw new Error('unbalanced parentheses');
      return value;
    }
    if (token.kind === 'string') return JSON.parse(token.text) as string;
    if (token.kind === 'number') return Number(token.text);
    if (token.kind !== 'word') throw new Error(`unexpected ${token.text}`);
    if (token.text === 'true' || token.text === 'false') return token.text === 'true';
    if (token.text === 'nil') return undefined;
    const [head, ...fields] = token.text.split('.');
    let value: unknown;
    if (head === '') value = this.dot;
    else if (head.startsWith('$')) {
      if (!this.variables.has(head)) throw new Error(`undefined variable ${head}`);
      value = this.variables.get(head);
      if (value === UNKNOWN) throw new Error(`${head} was assigned with something this renderer does not evaluate`);
    } else throw new Error(`unsupported operand ${token.text}`);
    for (const field of fields.filter((name) => name !== '')) {
      if (value === undefined || value === null) throw new Error(`nil pointer evaluating ${token.text}`);
      if (!isMap(value)) throw new Error(`${token.text}: .${field} of a non-map`);
      value = value[field];
    }
    return value;
  }
}

/** Evaluates one action's pipeline, e.g. `ternary $app.x $g.x (hasKey $app "x")`. */
export function evaluate(expression: string, dot: unknown, variables: Map<string, unknown> = new Map([['$', dot]])): unknown {
  return new Evaluator(tokenize(expression), dot, variables).run();
}

/**
 * The lines of a template (a define's body or a file) that `select` matches, rendered with `dot`
 * after the variable assignments above them (`$x := …`, in order; conditions are not followed).
 * An assignment this renderer cannot evaluate (include, dict, fromJson…) leaves its variable
 * unknown, an error only if a selected line uses it.
 */
export function renderLines(text: string, dot: unknown, select: RegExp): string[] {
  const variables = new Map<string, unknown>([['$', dot]]);
  const rendered: string[] = [];
  for (const line of stripComments(text).split('\n')) {
    if (line.search(select) >= 0) {
      rendered.push(line.replace(ACTION, (_match, body: string) => format(evaluate(body.trim(), dot, variables))));
      continue;
    }
    for (const action of actions(line)) {
      const assignment = /^(\$[A-Za-z_][A-Za-z0-9_]*)\s*:?=\s*([\s\S]+)$/.exec(action);
      if (!assignment) continue;
      try {
        variables.set(assignment[1], evaluate(assignment[2], dot, variables));
      } catch {
        variables.set(assignment[1], UNKNOWN);
      }
    }
  }
  return rendered;
}
