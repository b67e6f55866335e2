import { boosted, contextBefore, type PiiCandidate } from './pii-candidate.model';
import { usSsnValid } from './pii.validators';

/**
 * US Social Security numbers. The dashed layout is specific enough alone; a space-separated or
 * unseparated nine-digit number counts only next to SSN context words. Ranges the SSA never
 * issues (area 000, 666, 9xx; group 00; serial 0000) and published examples are rejected.
 */
const SEPARATED = /(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])/g;
const BARE = /(?<![\d-])(\d{3})(\d{2})(\d{4})(?![\d-])/g;
const CONTEXT = /(?:ssn|social security|soc\.? ?sec|ss#|ss no|taxpayer|tin\b|itin)/i;

export function recognizeUsSsns(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  SEPARATED.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = SEPARATED.exec(text)) !== null) {
    if (!usSsnValid(match[1]!, match[3]!, match[4]!)) continue;
    const hasContext = contextBefore(text, match.index, CONTEXT, 40);
    const base = match[2] === '-' ? 0.85 : 0.6;
    if (match[2] === ' ' && !hasContext) continue;
    found.push({ type: 'us_ssn', start: match.index, end: match.index + match[0].length, confidence: boosted(base, hasContext, 0.3) });
  }
  BARE.lastIndex = 0;
  while ((match = BARE.exec(text)) !== null) {
    if (!contextBefore(text, match.index, CONTEXT, 32)) continue;
    if (!usSsnValid(match[1]!, match[2]!, match[3]!)) continue;
    found.push({ type: 'us_ssn', start: match.index, end: match.index + 9, confidence: 0.8 });
  }
  return found;
}
