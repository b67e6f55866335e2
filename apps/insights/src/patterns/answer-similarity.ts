/**
 * Similarity of two answers, 0..1: the cosine of their word-count vectors (case-folded letters
 * and digits). Two empty answers are the same (1); one empty answer is not (0). Order-insensitive
 * on purpose: equivalent answers often phrase the same content in another order.
 */
export function answerSimilarity(a: string, b: string): number {
  const left = counts(a);
  const right = counts(b);
  if (left.size === 0 && right.size === 0) return 1;
  if (left.size === 0 || right.size === 0) return 0;
  let dot = 0;
  for (const [word, count] of left) dot += count * (right.get(word) ?? 0);
  const norm = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((sum, c) => sum + c * c, 0));
  return dot / (norm(left) * norm(right));
}

function counts(text: string): Map<string, number> {
  const result = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) result.set(word, (result.get(word) ?? 0) + 1);
  return result;
}

const GRADE_RANK: Record<string, number> = { A: 0, B: 1, C: 2, D: 3, F: 4 };

/** A replay is not worse than its source when its grade is the same or better (unknown grades do not count against it). */
export function gradeNotWorse(replayGrade: string, sourceGrade: string): boolean {
  const replay = GRADE_RANK[replayGrade];
  const source = GRADE_RANK[sourceGrade];
  if (replay === undefined || source === undefined) return true;
  return replay <= source;
}
