import { KeywordAutomaton, wordKeywords } from './keyword.automaton';

describe('KeywordAutomaton', () => {
  const automaton = new KeywordAutomaton(['he', 'she', 'hers', 'sk_live_']);

  it('finds overlapping keywords case-insensitively in one pass', () => {
    expect([...automaton.present('uSHErs')].sort()).toEqual([0, 1, 2]);
    expect(automaton.present('token SK_LIVE_abc').has(3)).toBe(true);
  });

  it('stays linear on pathological input', () => {
    expect(automaton.present('h'.repeat(50_000)).size).toBe(0);
  });

  it('matches whole words only when asked', () => {
    expect(automaton.present('ushers', true).size).toBe(0);
    expect([...automaton.present('she said he', true)].sort()).toEqual([0, 1]);
  });

  it('labels words equal to a keyword', () => {
    const words = wordKeywords(automaton, 'she sells hers');
    expect([...words.ids]).toEqual([1, -1, 2]);
    expect([...words.starts]).toEqual([0, 4, 10]);
  });
});
