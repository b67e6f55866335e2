import type { Grade } from './grading.types';

/** Best to worst. */
export const GRADE_ORDER: readonly Grade[] = ['A', 'B', 'C', 'D', 'F'];

function rank(grade: Grade): number {
  return GRADE_ORDER.indexOf(grade);
}

export function worseGrade(a: Grade, b: Grade): Grade {
  return rank(a) >= rank(b) ? a : b;
}

/** One letter worse, but never past `floor` (D: F is reserved for its own rules). */
export function lowerGrade(grade: Grade, floor: Grade = 'D'): Grade {
  if (rank(grade) >= rank(floor)) return grade;
  return GRADE_ORDER[rank(grade) + 1]!;
}

/** One letter better, but never better than `ceiling`; F is never raised. */
export function raiseGrade(grade: Grade, ceiling: Grade = 'A'): Grade {
  if (grade === 'F' || rank(grade) <= rank(ceiling)) return grade;
  return GRADE_ORDER[rank(grade) - 1]!;
}
