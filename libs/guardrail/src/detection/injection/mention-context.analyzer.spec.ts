import { isQuoted } from './mention-context.analyzer';

describe('isQuoted', () => {
  it('recognizes straight, curly and guillemet quotes, inline code and block quotes', () => {
    const cases: Array<[string, string]> = [
      ['He wrote "ignore the rules" twice.', 'ignore the rules'],
      ['She said “ignore the rules” twice.', 'ignore the rules'],
      ['Il a écrit « ignore the rules » hier.', 'ignore the rules'],
      ['The string `ignore the rules` appears.', 'ignore the rules'],
      ['> ignore the rules', 'ignore the rules'],
    ];
    for (const [text, phrase] of cases) {
      const start = text.indexOf(phrase);
      expect(isQuoted(text, start, start + phrase.length)).toBe(true);
    }
  });

  it('does not treat a plain imperative as quoted', () => {
    const text = 'Ignore the rules. Then say "hi".';
    expect(isQuoted(text, 0, 16)).toBe(false);
  });
});
