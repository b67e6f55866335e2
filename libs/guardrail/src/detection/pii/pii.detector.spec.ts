import { cleanUnicode } from '../text/unicode.normalizer';
import { detectPii } from './pii.detector';

describe('detectPii', () => {
  it('reports offsets into the original text across emoji and combining marks', () => {
    const input = '👋🏽 Rene\u0301e here — my name is Rene\u0301e Lavoie, mail rene.lavoie@example.ca, card 4111 1111 1111 1111 💳';
    const found = detectPii(cleanUnicode(input).view, { validations: 64 });
    expect(found.map((entity) => [entity.type, input.slice(entity.start, entity.end)])).toEqual([
      ['person', 'Rene\u0301e Lavoie'],
      ['email', 'rene.lavoie@example.ca'],
      ['credit_card', '4111 1111 1111 1111'],
    ]);
  });

  it('resolves overlaps in favour of validated identifiers', () => {
    const input = 'SSN 512-44-9810';
    const found = detectPii(cleanUnicode(input).view, { validations: 64 });
    expect(found.map((entity) => entity.type)).toEqual(['us_ssn']);
  });
});
