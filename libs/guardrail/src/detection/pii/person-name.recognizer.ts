import { boosted, continuesWord, type PiiCandidate } from './pii-candidate.model';
import { AMBIGUOUS_FIRST_NAMES, FIRST_NAMES, NOT_NAME_WORDS, ORGANIZATION_SUFFIXES, PERSON_NAMED_BRANDS } from './person-name.data';

/**
 * Person names without a statistical model: a name is one to four capitalized tokens that a
 * cue introduces (self-introduction, form label, greeting, sign-off, honorific) or a known first
 * name followed by a surname. Organization suffixes ("Ltd", "GmbH", "Bank") and companies named
 * after people drop the match. The span is the name only, without the honorific.
 */
const TOKEN = /[A-Z\u00C0-\u024F](?<=\p{Lu})(?:['’]\p{Lu})?[\p{Ll}\p{M}]+(?:\p{Lu}[\p{Ll}\p{M}]+)?(?:-\p{Lu}[\p{Ll}\p{M}]+)?(?![\p{L}\p{N}])/uy;
const PARTICLE = /(?:van der|van den|van de|von der|von|van|de la|de los|de las|del|della|de|da|dos|das|di|du|le|la|ter|ten|bin|ibn|al|el) (?=\p{Lu})/uy;
const HONORIFIC = /(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Herr|Frau|Monsieur|Madame|Mademoiselle|Mme|Mlle|M\.|Señor|Señora|Señorita|Sr|Sra|Srta|Don|Doña|Signor|Signora|Signorina|Sig|Sig\.ra|Dott|Dott\.ssa|Dr\.ssa|Senhor|Senhora|Dra)(?![\p{L}])\.?\s+/uy;
const HONORIFIC_SEARCH = /(?:Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Herr|Frau|Monsieur|Madame|Mademoiselle|Mme|Mlle|M\.|Señor|Señora|Señorita|Sr|Sra|Srta|Doña|Signor|Signora|Signorina|Sig|Sig\.ra|Dott|Dott\.ssa|Senhor|Senhora|Dra)(?![\p{L}])\.?\s+(?=\p{Lu})/gu;

type CueKind = 'introduction' | 'weak_introduction' | 'form' | 'role' | 'greeting' | 'closing' | 'header';

interface Cue {
  kind: CueKind;
  pattern: RegExp;
}

const CUES: readonly Cue[] = [
  {
    kind: 'introduction',
    pattern: /(?:my name is|my name's|my name’s|name is|i am called|call me|i go by|mein name ist|ich heiße|ich heisse|je m'appelle|je m’appelle|mon nom est|me llamo|mi nombre es|mi chiamo|il mio nome è|il mio nome e|meu nome é|meu nome e|me chamo)\s+/giu,
  },
  {
    kind: 'weak_introduction',
    pattern: /(?:i am|i'm|i’m|this is|it's|it’s|je suis|c'est|c’est|soy|sono|sou|eu sou|ich bin|hier ist|hier spricht|written by|by|with|from|for|ask|ping|told|met|spoke to|spoke with|talked to|thank)\s+/giu,
  },
  {
    kind: 'form',
    pattern: /(?:full name|first name|last name|surname|name|patient|customer|client|employee|applicant|candidate|tenant|student|passenger|cardholder|card holder|account holder|beneficiary|recipient|contact person|contact|attn|attention|signed|signature|author|assignee|assigned to|owner|reported by|requested by|approved by|prepared by|submitted by|nombre|apellido|nom|prénom|nome|cognome|vorname|nachname|kunde|kundin|patientin|mitarbeiter|mitarbeiterin|paciente|cliente|dipendente|empleado|funcionário|funcionario|titular|kontakt|ansprechpartner|ansprechpartnerin|contacto|contatto|contato|interlocuteur)\s*[:=–-]\s*/giu,
  },
  {
    kind: 'role',
    pattern: /(?:patient|customer|client|employee|applicant|candidate|tenant|student|passenger|cardholder|account holder|beneficiary|recipient|colleague|coworker|manager|contact|member|driver|guest|landlord|buyer|seller|sender|caller|user|my (?:colleague|manager|wife|husband|son|daughter|friend|brother|sister|mother|father|doctor|lawyer|boss|partner)|our (?:colleague|manager|client|customer|ceo|cto|cfo))[\s,]+/giu,
  },
  {
    kind: 'greeting',
    pattern: /(?:dear|hi|hello|hey|good morning|good afternoon|liebe|lieber|sehr geehrte|sehr geehrter|hallo|bonjour|bonsoir|cher|chère|querido|querida|estimado|estimada|hola|caro|cara|gentile|gentilissima|gentilissimo|ciao|olá|ola|prezado|prezada|salut)[\s,]+/giu,
  },
  {
    kind: 'closing',
    pattern: /(?:signed|best regards|kind regards|warm regards|warmest regards|regards|best wishes|all the best|best|cheers|thanks|thank you|many thanks|sincerely|yours sincerely|yours truly|yours faithfully|respectfully|mit freundlichen grüßen|mit freundlichen gruessen|freundliche grüße|viele grüße|beste grüße|liebe grüße|herzliche grüße|mfg|cordialement|bien cordialement|bien à vous|amicalement|salutations|saludos|atentamente|un saludo|cordiales saludos|un abrazo|cordiali saluti|distinti saluti|saluti|un saluto|atenciosamente|cumprimentos|abraços|abraço|obrigado|obrigada|gracias|merci|grazie|danke)\s*[,.!]?[ \t]*(?:\r?\n[ \t]*|[ \t]*[-–—][ \t]*)?/giu,
  },
  {
    kind: 'header',
    pattern: /(?:^|\n)[ \t]*(?:from|to|cc|von|an|de|para|à|da|a)[ \t]*:[ \t]*/giu,
  },
];

/** Base confidence per cue, before the first-name boost. */
const CUE_CONFIDENCE: Record<CueKind, number> = {
  introduction: 0.75,
  weak_introduction: 0.7,
  form: 0.7,
  role: 0.7,
  greeting: 0.7,
  closing: 0.65,
  header: 0.7,
};
const FIRST_NAME_BOOST = 0.15;
const PERSON_VERBS = /^\s(?:said|says|wrote|writes|asked|asks|emailed|called|replied|mentioned|told|reported|explained|confirmed|noted|added|joined|left|is our|is my|is the|was born|lives|works|signed|approved|sent)(?![\p{L}])/u;

interface NameMatch {
  start: number;
  end: number;
  tokens: string[];
  organization: boolean;
}

/** Reads up to four name tokens at `position` (particles such as "van der" allowed between them). */
function readName(text: string, position: number): NameMatch | null {
  const tokens: string[] = [];
  let end = position;
  let cursor = position;
  let organization = false;
  while (tokens.length < 4) {
    TOKEN.lastIndex = cursor;
    const token = TOKEN.exec(text);
    if (token === null) break;
    const word = token[0];
    if (ORGANIZATION_SUFFIXES.has(word)) {
      organization = tokens.length > 0;
      break;
    }
    if (NOT_NAME_WORDS.has(word)) break;
    tokens.push(word);
    end = cursor + word.length;
    if (text[end] !== ' ' || text[end + 1] === ' ') break;
    cursor = end + 1;
    PARTICLE.lastIndex = cursor;
    const particle = PARTICLE.exec(text);
    if (particle !== null) cursor += particle[0].length;
  }
  if (tokens.length === 0) return null;
  const after = text.slice(end, end + 16);
  if (/^[ \t]?(?:&|and\s\p{Lu}|\+[ \t]?\p{Lu})/u.test(after)) organization = true;
  const nextWord = /^\s+(\S+)/u.exec(after)?.[1]?.replace(/[,.;:]$/, '');
  if (nextWord !== undefined && ORGANIZATION_SUFFIXES.has(nextWord)) organization = true;
  const key = tokens.join(' ').toLowerCase();
  if (PERSON_NAMED_BRANDS.has(key) || PERSON_NAMED_BRANDS.has(tokens.slice(0, 2).join(' ').toLowerCase())) organization = true;
  return { start: position, end, tokens, organization };
}

function isKnownFirstName(word: string | undefined): boolean {
  return word !== undefined && FIRST_NAMES.has(word.toLowerCase());
}

function acceptCueName(kind: CueKind, name: NameMatch, honorific: boolean): boolean {
  const known = isKnownFirstName(name.tokens[0]);
  switch (kind) {
    case 'introduction':
    case 'form':
    case 'header':
      return true;
    case 'weak_introduction':
      return known || honorific;
    case 'role':
      return known || honorific || name.tokens.length >= 2;
    case 'greeting':
    case 'closing':
      return known || honorific || name.tokens.length >= 2;
  }
}

export function recognizePersonNames(text: string, limit = Number.POSITIVE_INFINITY): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  const push = (name: NameMatch, confidence: number): void => {
    found.push({ type: 'person', start: name.start, end: name.end, confidence });
  };

  for (const cue of CUES) {
    cue.pattern.lastIndex = 0;
    let match: RegExpExecArray | null;
    while (found.length < limit && (match = cue.pattern.exec(text)) !== null) {
      if (match[0].length === 0) {
        cue.pattern.lastIndex++;
        continue;
      }
      if (cue.kind !== 'header' && continuesWord(text, match.index)) {
        cue.pattern.lastIndex = match.index + 1;
        continue;
      }
      let position = match.index + match[0].length;
      // Romance languages put an article before a name ("sou a Inês", "soy la Marta").
      if (cue.kind === 'weak_introduction' || cue.kind === 'role') {
        const article = /^(?:a|o|la|el|il|lo|le)\s+(?=\p{Lu})/u.exec(text.slice(position, position + 4));
        if (article !== null) position += article[0].length;
      }
      HONORIFIC.lastIndex = position;
      const honorific = HONORIFIC.exec(text);
      if (honorific !== null) position += honorific[0].length;
      const name = readName(text, position);
      if (name === null || name.organization) continue;
      if (!acceptCueName(cue.kind, name, honorific !== null)) continue;
      if (cue.kind === 'closing' && !/^[ \t]*(?:$|[\r\n,|.!]|[-–—(])/u.test(text.slice(name.end, name.end + 4))) continue;
      if (cue.kind === 'greeting' && !/^[ \t]*(?:[,!:\r\n]|$)/u.test(text.slice(name.end, name.end + 4))) continue;
      const known = isKnownFirstName(name.tokens[0]);
      push(name, boosted(CUE_CONFIDENCE[cue.kind], known || honorific !== null, FIRST_NAME_BOOST));
    }
  }

  HONORIFIC_SEARCH.lastIndex = 0;
  let honorific: RegExpExecArray | null;
  while (found.length < limit && (honorific = HONORIFIC_SEARCH.exec(text)) !== null) {
    if (continuesWord(text, honorific.index)) {
      HONORIFIC_SEARCH.lastIndex = honorific.index + 1;
      continue;
    }
    const name = readName(text, honorific.index + honorific[0].length);
    if (name === null || name.organization) continue;
    push(name, 0.8);
  }

  // Known first name + surname, or a known first name doing what people do ("Anna said").
  const capitalized = /[A-Z\u00C0-\u024F](?<=\p{Lu})(?<![\p{L}\p{N}@._-].)[\p{Ll}\p{M}]+/gu;
  let word: RegExpExecArray | null;
  while (found.length < limit && (word = capitalized.exec(text)) !== null) {
    const lower = word[0].toLowerCase();
    if (!FIRST_NAMES.has(lower)) continue;
    const name = readName(text, word.index);
    if (name === null || name.organization) continue;
    const verb = PERSON_VERBS.test(text.slice(name.end, name.end + 20));
    const surname = name.tokens.length >= 2 && !AMBIGUOUS_FIRST_NAMES.has(lower);
    if (verb || surname) push(name, verb ? 0.7 : 0.6);
    capitalized.lastIndex = Math.max(capitalized.lastIndex, name.end);
  }
  // Several cues can name the same person; keep each span once, at its best confidence.
  const unique = new Map<string, PiiCandidate>();
  for (const candidate of found) {
    const key = `${candidate.start}:${candidate.end}`;
    const existing = unique.get(key);
    if (existing === undefined || existing.confidence < candidate.confidence) unique.set(key, candidate);
  }
  return [...unique.values()].sort((a, b) => a.start - b.start);
}
