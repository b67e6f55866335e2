import { compileSafePattern, MAX_PATTERN_LENGTH } from './safe-regex.validator';

describe('compileSafePattern', () => {
  it('accepts ordinary patterns and bounds their repeats', () => {
    const safe = compileSafePattern('\\w+@rival\\.example');
    expect(safe.regex.source).toBe('\\w{1,64}@rival\\.example');
    expect(safe.requiredLiteral).toBe('@rival.example');
    expect(safe.maxWidth).toBe(78);
    expect(compileSafePattern('\\bACME-\\d{4}\\b').requiredLiteral).toBe('acme-');
    expect(compileSafePattern('\\w+\\s+\\w+').requiredLiteral).toBeNull();
    expect(compileSafePattern('foo|barbaz').requiredLiteral).toBeNull();
  });

  it.each([
    ['(a+)+', 'nested quantifier'],
    ['(a|aa)*', 'nested quantifier'],
    ['\\w+\\w+x', 'side by side'],
    ['(\\d+)\\d+', 'side by side'],
    ['(a)\\1', 'backreference'],
    ['(?<=x)a', 'lookbehind'],
    ['a{1,5000}', 'more than'],
    ['(unclosed', 'unbalanced'],
    ['x'.repeat(MAX_PATTERN_LENGTH + 1), 'longer than'],
  ])('rejects %j (%s) with VALIDATION_FAILED', (pattern, reason) => {
    expect(() => compileSafePattern(pattern)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringContaining(reason) }));
  });

  it('keeps patterns linear on adversarial text', () => {
    const { regex } = compileSafePattern('\\w+x');
    const started = performance.now();
    'a'.repeat(50_000).match(regex);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
