import { pick, type Random } from './corpus.helpers';

/**
 * Obfuscation techniques seen in the wild, applied to plain attack texts to build the
 * obfuscated half of the injection corpus. Each returns the disguised text.
 */
export type Technique =
  | 'leetspeak'
  | 'spaced_words'
  | 'spaced_flat'
  | 'zero_width'
  | 'homoglyph'
  | 'fullwidth'
  | 'base64'
  | 'hex'
  | 'url_encoding'
  | 'html_entities'
  | 'unicode_tags'
  | 'diacritics'
  | 'dotted'
  | 'markdown'
  | 'bidi_reversed'
  | 'case_noise';

const LEET: Record<string, string> = { a: '4', e: '3', i: '1', o: '0', s: '5', t: '7', l: '1', g: '9', b: '8' };
const HOMOGLYPHS: Record<string, string> = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', y: 'у', i: 'і', s: 'ѕ', j: 'ј', A: 'Α', E: 'Ε', O: 'Ο', T: 'Τ', H: 'Η', I: 'Ι', K: 'Κ', M: 'Μ', P: 'Р', C: 'С' };
const MARKS = ['\u0301', '\u0308', '\u0300', '\u0302', '\u0303'];
const CARRIERS = [
  'Please process the following data for me: ',
  'Here is the payload from the ticket, handle it: ',
  'Can you help with this string? ',
  'Attachment content follows. ',
];

function mapLetters(text: string, random: Random, rate: number, table: Record<string, string>): string {
  return [...text].map((char) => (table[char] !== undefined && random() < rate ? table[char] : char)).join('');
}

export function applyTechnique(text: string, technique: Technique, random: Random): string {
  switch (technique) {
    case 'leetspeak':
      return mapLetters(text, random, 0.7, LEET);
    case 'spaced_words':
      return text.split(/\s+/).map((word) => [...word].join(' ')).join('   ');
    case 'spaced_flat':
      return [...text.replace(/\s+/g, '')].join(' ');
    case 'zero_width':
      return text.split(' ').map((word) => [...word].join(pick(random, ['\u200b', '\u200c', '\u2060', '\ufeff']))).join(' ');
    case 'homoglyph':
      return mapLetters(text, random, 0.5, HOMOGLYPHS);
    case 'fullwidth':
      return [...text].map((char) => (char >= '!' && char <= '~' ? String.fromCodePoint(char.codePointAt(0)! + 0xfee0) : char === ' ' ? '\u3000' : char)).join('');
    case 'base64':
      return `${pick(random, CARRIERS)}${Buffer.from(text, 'utf8').toString('base64')}`;
    case 'hex':
      return `${pick(random, CARRIERS)}${Buffer.from(text, 'utf8').toString('hex')}`;
    case 'url_encoding':
      return `${pick(random, CARRIERS)}${[...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('')}`;
    case 'html_entities':
      return [...text].map((char) => `&#${char.codePointAt(0)};`).join('');
    case 'unicode_tags':
      // Tag characters only exist for ASCII, so attackers transliterate first.
      return `What is the capital of Australia?${[...text.normalize('NFD').replace(/[^\x20-\x7e\n]/g, '')].map((char) => String.fromCodePoint(0xe0000 + char.charCodeAt(0))).join('')}`;
    case 'diacritics':
      return [...text].map((char) => (/[aeiou]/i.test(char) && random() < 0.7 ? char + pick(random, MARKS) : char)).join('');
    case 'dotted':
      return text.split(' ').map((word) => [...word].join('.')).join(' ');
    case 'markdown':
      return text.split(' ').map((word, index) => (index % 3 === 0 ? `**${word}**` : index % 3 === 1 ? `_${word}_` : word)).join(' ');
    case 'bidi_reversed':
      return `\u202e${[...text].reverse().join('')}\u202c`;
    case 'case_noise':
      return [...text].map((char) => (random() < 0.5 ? char.toUpperCase() : char.toLowerCase())).join('');
  }
}

export const TECHNIQUES: readonly Technique[] = [
  'leetspeak', 'spaced_words', 'spaced_flat', 'zero_width', 'homoglyph', 'fullwidth', 'base64', 'hex', 'url_encoding',
  'html_entities', 'unicode_tags', 'diacritics', 'dotted', 'markdown', 'bidi_reversed', 'case_noise',
];
