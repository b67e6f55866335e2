import { complexityScore } from './complexity-score.policy';
import { MULTI_STEP_CUES, NUMBERED_STEPS_CUE, REASONING_CUES } from './routing-cues.constants';
import type { RouteInput, RouteTool, RoutingFeatures } from './routing.types';

/**
 * Scripts written without spaces between words, where a cue is matched as a substring and a
 * character is roughly one token (Han, Hiragana, Katakana, Hangul).
 */
const WIDE_SCRIPT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/u;
const WIDE_SCRIPT_GLOBAL = new RegExp(WIDE_SCRIPT.source, 'gu');

/** Average characters per token for Latin-script text (OpenAI's and Anthropic's rule of thumb). */
const CHARS_PER_TOKEN = 4;

/**
 * Signals that the input contains source code. Each pattern is specific enough to be absent
 * from ordinary prose; SQL is matched upper-case only for the same reason.
 */
const CODE_PATTERNS: readonly RegExp[] = [
  /```/, // fenced block
  /^\s*(def|class)\s+\w+[^\n]*:\s*$/m, // Python definition
  /\bfunction\s*\w*\s*\([^)]*\)\s*\{/, // JavaScript function
  /\b(const|let|var)\s+\w+\s*=[^=]/, // JavaScript binding
  /=>\s*[{(]/, // arrow function body
  /#include\s*[<"]/, // C / C++
  /\b(public|private|protected)\s+(static\s+)?[\w<>[\]]+\s+\w+\s*\(/, // Java / C#
  /\bimport\s+[\w{}*,\s]+\s+from\s+['"]/, // ES module import
  /\bSELECT\b[\s\S]+\bFROM\b/, // SQL
  /^\s*(fn|func)\s+\w+\s*\(/m, // Rust / Go
];

/** Two or more lines that start like `1.` / `2)` form a list of steps. */
const NUMBERED_LINE = /^\s*\d+[.)]\s+\S/gm;

export function extractFeatures(input: RouteInput): RoutingFeatures {
  const text = input.input ?? '';
  const normalized = text.normalize('NFKC').toLowerCase();
  const multiStepCues = findCues(normalized, MULTI_STEP_CUES);
  if ((text.match(NUMBERED_LINE) ?? []).length >= 2) multiStepCues.push(NUMBERED_STEPS_CUE);

  const partial = {
    chars: [...text].length,
    estimatedPromptTokens: estimatePromptTokens(text, input.tools),
    reasoningCues: findCues(normalized, REASONING_CUES),
    multiStepCues,
    hasCode: CODE_PATTERNS.some((pattern) => pattern.test(text)),
    documentAttachments: Math.max(0, Math.floor(input.attachments ?? 0)),
  };
  return {
    ...partial,
    sensitive: input.sensitive === true,
    vpcOnlyTools: (input.tools ?? []).some((tool) => tool.type === 'mcp' && tool.vpc_only === true),
    score: complexityScore(partial),
  };
}

/**
 * Prompt tokens before the provider tells us: ceil(latin chars / 4) + one token per CJK / Hangul
 * character (those scripts tokenize near one token per character), plus the tool definitions,
 * which providers send to the model as JSON (ceil(JSON chars / 4)). Deliberately a little high
 * rather than low, since it feeds a cost estimate.
 */
export function estimatePromptTokens(text: string, tools?: RouteTool[]): number {
  const wideChars = (text.match(WIDE_SCRIPT_GLOBAL) ?? []).length;
  const otherChars = [...text].length - wideChars;
  const toolChars = tools && tools.length > 0 ? JSON.stringify(tools).length : 0;
  return Math.ceil(otherChars / CHARS_PER_TOKEN) + wideChars + Math.ceil(toolChars / CHARS_PER_TOKEN);
}

/** Distinct cues present in the (already lower-cased) text, in list order. */
function findCues(normalizedText: string, cues: readonly string[]): string[] {
  return cues.filter((cue) => cueMatcher(cue)(normalizedText));
}

const matcherCache = new Map<string, (text: string) => boolean>();

function cueMatcher(cue: string): (text: string) => boolean {
  const cached = matcherCache.get(cue);
  if (cached) return cached;
  let matcher: (text: string) => boolean;
  if (WIDE_SCRIPT.test(cue)) {
    matcher = (text) => text.includes(cue);
  } else {
    // Unicode-aware word boundary: \b only knows ASCII letters, which would split "für" or "qué".
    const escaped = cue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u');
    matcher = (text) => pattern.test(text);
  }
  matcherCache.set(cue, matcher);
  return matcher;
}
