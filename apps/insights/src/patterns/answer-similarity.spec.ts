import { answerSimilarity, gradeNotWorse } from './answer-similarity';

describe('answerSimilarity', () => {
  it('is 1 for the same words in any order or case, 0 for nothing in common', () => {
    expect(answerSimilarity('Paris is the capital', 'the capital is PARIS')).toBeCloseTo(1, 10);
    expect(answerSimilarity('red apple', 'blue sky')).toBe(0);
    expect(answerSimilarity('', '')).toBe(1);
    expect(answerSimilarity('x', '')).toBe(0);
  });

  it('is between for partial overlap', () => {
    const similarity = answerSimilarity('the capital of France is Paris', 'Paris');
    expect(similarity).toBeGreaterThan(0);
    expect(similarity).toBeLessThan(1);
  });
});

describe('gradeNotWorse', () => {
  it('compares letters, ignoring unknown grades', () => {
    expect(gradeNotWorse('A', 'B')).toBe(true);
    expect(gradeNotWorse('B', 'B')).toBe(true);
    expect(gradeNotWorse('C', 'B')).toBe(false);
    expect(gradeNotWorse('', 'B')).toBe(true);
  });
});
