import { lowerGrade, raiseGrade, worseGrade } from './grade-scale.util';

describe('grade scale', () => {
  it('picks the worse grade', () => {
    expect(worseGrade('A', 'C')).toBe('C');
    expect(worseGrade('F', 'B')).toBe('F');
  });

  it('lowers one letter, not past D by default', () => {
    expect(lowerGrade('A')).toBe('B');
    expect(lowerGrade('C')).toBe('D');
    expect(lowerGrade('D')).toBe('D');
    expect(lowerGrade('F')).toBe('F');
    expect(lowerGrade('D', 'F')).toBe('F');
  });

  it('raises one letter, never above the ceiling and never from F', () => {
    expect(raiseGrade('C')).toBe('B');
    expect(raiseGrade('A')).toBe('A');
    expect(raiseGrade('C', 'C')).toBe('C');
    expect(raiseGrade('F')).toBe('F');
  });
});
