/**
 * The task pattern (intent) of a trace. A caller may label it (`metadata.intent`, lower-case
 * letters, digits, `_` and `-`, up to 48 characters); otherwise the first model call's input is
 * classified by the first rule whose cue matches, in this order:
 *
 * | intent             | cues                                                            |
 * |--------------------|-----------------------------------------------------------------|
 * | translation        | translate, "in/into <language>"                                  |
 * | summarization      | summarize/summarise, summary, tl;dr, key points, condense        |
 * | code               | code, function, bug, stack trace, refactor, regex, SQL, compile, a code fence |
 * | extraction         | extract, pull out, parse, "as JSON", fields                      |
 * | classification     | classify, categorize, label, sentiment, "is this spam"           |
 * | writing            | write, draft, compose, rewrite, email, essay, story, poem        |
 * | question_answering | starts with what/who/when/where/why/how/which/is/are/can/does, or ends with "?" |
 * | general            | anything else                                                    |
 */
export const INTENTS = ['translation', 'summarization', 'code', 'extraction', 'classification', 'writing', 'question_answering', 'general'] as const;
export type Intent = (typeof INTENTS)[number];

const LANGUAGES = 'english|french|spanish|german|italian|portuguese|dutch|japanese|chinese|korean|arabic|russian|hindi|polish|swedish|turkish';
const RULES: [Intent, RegExp][] = [
  ['translation', new RegExp(`\\btranslat(e|ion|ing)\\b|\\b(in|into|to) (${LANGUAGES})\\b`, 'i')],
  ['summarization', /\bsummari[sz](e|es|ing|ation)\b|\bsummary\b|\btl;?dr\b|\bkey points\b|\bcondense\b/i],
  ['code', /```|\b(code|function|bug|stack ?trace|refactor|regex|sql|compile[sr]?|typescript|javascript|python|unit tests?)\b/i],
  ['extraction', /\bextract(ion)?\b|\bpull out\b|\bparse\b|\bas json\b|\bfields?\b/i],
  ['classification', /\bclassif(y|ication)\b|\bcategori[sz]e\b|\blabel\b|\bsentiment\b|\bis this spam\b/i],
  ['writing', /\b(write|draft|compose|rewrite)\b|\b(email|essay|story|poem|cover letter|blog post)\b/i],
  ['question_answering', /^\s*(what|who|when|where|why|how|which|is|are|can|does|do)\b|\?\s*$/i],
];
const LABEL = /^[a-z0-9_-]{1,48}$/;

export function classifyIntent(input: string, metadata?: Record<string, unknown>): string {
  const label = metadata?.intent;
  if (typeof label === 'string' && LABEL.test(label.trim().toLowerCase())) return label.trim().toLowerCase();
  for (const [intent, cue] of RULES) if (cue.test(input)) return intent;
  return 'general';
}
