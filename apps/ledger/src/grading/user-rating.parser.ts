import type { StepRecord } from '../summary';

/**
 * Log steps count in grading when their output has a `user_rating` key (spec: Trace → Grades).
 * Accepted forms, normalized to 0..1 (0 worst, 1 best):
 * - a number (or numeric string) on a 1–5 star scale: (rating − 1) / 4;
 * - a number on a 0–1 scale (e.g. 0.8, or 0 for thumbs down): taken as is;
 * - a boolean thumbs up / down: 1 / 0.
 * Values in [0, 1) are read as 0–1 and values in (1, 5] as 1–5. Exactly 1 is ambiguous and is
 * read as one star (1–5 scale) unless the output says `user_rating_scale: 1`; with
 * `user_rating_scale: 5` any value is read on the star scale. Anything else (out of range,
 * not a number) is ignored rather than guessed.
 */
export function parseUserRating(output: unknown): number | null {
  const record = asRecord(output);
  if (!record || !('user_rating' in record)) return null;
  const raw = record['user_rating'];
  if (typeof raw === 'boolean') return raw ? 1 : 0;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  if (!Number.isFinite(value)) return null;

  const scale = record['user_rating_scale'];
  if (scale === 5) return value >= 1 && value <= 5 ? (value - 1) / 4 : null;
  if (scale === 1) return value >= 0 && value <= 1 ? value : null;
  if (value >= 0 && value < 1) return value;
  if (value >= 1 && value <= 5) return (value - 1) / 4;
  return null;
}

/** Mean normalized rating over the log steps that carry one; null when none does. */
export function averageUserRating(steps: StepRecord[]): { average: number; count: number } | null {
  const ratings = steps
    .filter((step) => step.type === 'log')
    .map((step) => parseUserRating(step.output))
    .filter((rating): rating is number => rating !== null);
  if (ratings.length === 0) return null;
  return { average: ratings.reduce((sum, rating) => sum + rating, 0) / ratings.length, count: ratings.length };
}

function asRecord(output: unknown): Record<string, unknown> | null {
  let value = output;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}
