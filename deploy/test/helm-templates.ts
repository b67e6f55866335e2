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
