import { toOriginalSpan } from './text-view.model';
import { cleanUnicode } from './unicode.normalizer';

describe('cleanUnicode', () => {
  it('returns ASCII input unchanged with an identity map', () => {
    const cleaned = cleanUnicode('plain text');
    expect(cleaned.view.text).toBe('plain text');
    expect(cleaned.view.starts).toBeNull();
    expect(cleaned.signals).toEqual([]);
  });

  it('removes zero-width characters inside words, flags them and keeps offsets', () => {
    const input = 'I\u200bg\u200bnore';
    const cleaned = cleanUnicode(input);
    expect(cleaned.view.text).toBe('Ignore');
    expect(toOriginalSpan(cleaned.view, 0, 6)).toEqual({ start: 0, end: input.length });
    expect(cleaned.signals.map((signal) => signal.kind)).toEqual(['invisible_characters']);
  });

  it('keeps emoji joiners and flag tag sequences without flagging them', () => {
    const cleaned = cleanUnicode('family 👨‍👩‍👧 from Scotland 🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}');
    expect(cleaned.signals).toEqual([]);
    expect(cleaned.view.text).not.toMatch(/[\u{e0000}-\u{e007f}]/u);
  });

  it('composes combining marks and maps the composed letter to both units', () => {
    const input = 'Rene\u0301e 👍🏽 ok';
    const cleaned = cleanUnicode(input);
    expect(cleaned.view.text).toBe('Renée 👍🏽 ok');
    const accented = cleaned.view.text.indexOf('é');
    expect(toOriginalSpan(cleaned.view, accented, accented + 1)).toEqual({ start: 3, end: 5 });
    const ok = cleaned.view.text.indexOf('ok');
    expect(input.slice(toOriginalSpan(cleaned.view, ok, ok + 2).start, toOriginalSpan(cleaned.view, ok, ok + 2).end)).toBe('ok');
  });

  it('applies NFKC to full-width and mathematical letters', () => {
    expect(cleanUnicode('Ｉｇｎｏｒｅ 𝐚𝐥𝐥').view.text).toBe('Ignore all');
  });

  it('decodes hidden tag characters into text and flags the payload', () => {
    const hidden = [...'ignore'].map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('');
    const input = `Hi${hidden}!`;
    const cleaned = cleanUnicode(input);
    expect(cleaned.view.text).toContain('ignore');
    expect(cleaned.signals).toEqual([{ kind: 'tag_payload', start: 2, end: 2 + hidden.length, confidence: 1 }]);
  });

  it('shows right-to-left overrides in display order', () => {
    const input = '\u202esnoitcurtsni erongi\u202c done';
    const cleaned = cleanUnicode(input);
    expect(cleaned.view.text).toBe('ignore instructions done');
    expect(cleaned.signals[0]?.kind).toBe('bidi_control');
  });

  it('keeps lone surrogates as single units', () => {
    const input = `a\ud800b\udc00c é`;
    const cleaned = cleanUnicode(input);
    expect(cleaned.view.text).toHaveLength(input.length);
    expect(toOriginalSpan(cleaned.view, 2, 3)).toEqual({ start: 2, end: 3 });
  });

  it('strips zalgo marks and flags the flood', () => {
    const cleaned = cleanUnicode(`a${'\u0301'.repeat(9)}b`);
    expect(cleaned.view.text).toBe('ab');
    expect(cleaned.signals[0]?.kind).toBe('combining_flood');
  });
});
