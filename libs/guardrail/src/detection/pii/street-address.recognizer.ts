import { boosted, contextBefore, continuesWord, LATIN_UPPER, type PiiCandidate } from './pii-candidate.model';

/**
 * Street lines in the layouts of the supported languages. The span is the street line: house
 * number, street name and type, plus a unit ("Apt 4B") when written on the same line; city and
 * postcode are not part of it. Every repetition is bounded, so backtracking is too.
 */
const CAP = `${LATIN_UPPER}[\\p{Ll}\\p{M}'’]+`;
/** Upper-case initial for a lower-case alternative list: "rue|avenue" -> "[Rr]ue|[Aa]venue". */
function anyCase(words: string): string {
  return words
    .split('|')
    .map((word) => (/^\p{L}/u.test(word) ? `[${word[0]!.toUpperCase()}${word[0]!.toLowerCase()}]${word.slice(1)}` : word))
    .join('|');
}

const US_TYPES_FULL = 'Street|Avenue|Road|Boulevard|Lane|Drive|Court|Place|Terrace|Way|Parkway|Circle|Highway|Square|Trail|Crescent|Close|Row|Plaza|Alley|Loop|Pike|Path|Walk|Gardens|Mews|Grove|Broadway|Expressway|Turnpike';
const US_TYPES_SHORT = 'St|Ave|Rd|Blvd|Ln|Dr|Ct|Pl|Ter|Pkwy|Cir|Hwy|Sq|Trl';
const DIRECTION = '(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)';
const UNIT = '(?:,?\\s(?:Apt|Apartment|Suite|Ste|Unit|Floor|Fl|Room|Rm)\\.?\\s?#?[A-Za-z0-9-]{1,6}(?![\\p{L}\\d])|,?\\s#\\d{1,5}(?![\\p{L}\\d]))?';

const PATTERNS: ReadonlyArray<{ id: string; pattern: RegExp }> = [
  {
    id: 'en',
    pattern: new RegExp(
      `\\d(?<![\\p{L}\\d/.,-]\\d)\\d{0,5}[A-Za-z]?(?:-\\d{1,4})?\\s(?:${DIRECTION}\\.?\\s)?(?:${CAP}|\\d{1,3}(?:st|nd|rd|th))(?:\\s${CAP}){0,3}\\s(?:(?:${US_TYPES_FULL})(?![\\p{L}])|(?:${US_TYPES_SHORT})(?![\\p{L}])\\.?)(?:\\s${DIRECTION}(?![\\p{L}]))?${UNIT}`,
      'gu',
    ),
  },
  {
    id: 'de',
    pattern: new RegExp(
      `${LATIN_UPPER}(?<![\\p{L}\\d].)(?:[\\p{Ll}ß]+(?:-\\p{Lu}[\\p{Ll}ß]+){0,2}(?:straße|strasse|str\\.|weg|allee|platz|gasse|ring|damm|ufer|chaussee|steig|pfad|markt)|[\\p{Ll}ß]+\\s(?:Straße|Strasse|Str\\.|Weg|Allee|Platz|Gasse|Ring|Damm|Ufer|Chaussee))\\s\\d{1,4}\\s?[a-z]?(?![\\p{L}\\d])`,
      'gu',
    ),
  },
  {
    id: 'fr',
    pattern: new RegExp(
      `\\d(?<![\\p{L}\\d]\\d)\\d{0,3}(?:\\s?(?:bis|ter))?,?\\s(?:${anyCase('rue|avenue|boulevard|bd|place|allée|allee|impasse|chemin|quai|cours|route|square|passage')})\\s(?:(?:de la|de l'|de l’|du|des|de|d'|d’|l'|l’)\\s?)?${CAP}(?:[\\s-](?:(?:de la|de|du|des|d'|d’|la|le)\\s)?${CAP}){0,3}`,
      'gu',
    ),
  },
  {
    id: 'es',
    pattern: new RegExp(
      `(?:${anyCase('calle|avenida|avda\\.|paseo|plaza|camino|carrera|ronda|travesía|glorieta')}|C/)\\s?(?:(?:de la|de los|de las|del|de)\\s)?${CAP}(?:\\s(?:(?:de la|de los|de las|del|de|y)\\s)?${CAP}){0,3},?\\s(?:n[º°o]\\.?\\s?)?\\d{1,4}(?:\\s?[A-Z](?![\\p{L}]))?`,
      'gu',
    ),
  },
  {
    id: 'it',
    pattern: new RegExp(
      `(?:Via|Viale|${anyCase('piazza|corso|largo|vicolo|piazzale|lungomare|strada')})\\s(?:(?:dei|degli|delle|della|del|di|de'|dell'|dell’)\\s?)?${CAP}(?:\\s(?:(?:dei|degli|delle|della|del|di)\\s)?${CAP}){0,3},?\\s\\d{1,4}(?:\\/[A-Za-z]|[A-Za-z](?![\\p{L}]))?`,
      'gu',
    ),
  },
  {
    id: 'pt',
    pattern: new RegExp(
      `(?:${anyCase('rua|avenida|av\\.|travessa|praça|largo|alameda|estrada|rodovia')})\\s(?:(?:da|do|das|dos|de)\\s)?${CAP}(?:\\s(?:(?:da|do|das|dos|de|e)\\s)?${CAP}){0,3},?\\s(?:n[º°o]\\.?\\s?)?\\d{1,5}`,
      'gu',
    ),
  },
];

const CONTEXT = /(?:address|addr\.|live at|lives at|living at|located at|ship to|shipping|deliver to|delivery|residing at|resides at|home|mailing|adresse|wohne|wohnhaft|anschrift|habite|domicile|direcci[oó]n|vivo en|domicilio|indirizzo|abito|residente|endere[cç]o|moro|morada|resid)/i;
const POSTCODE_AFTER = /^,?\s(?:[\p{Lu}][\p{L}' -]{1,30},?\s)?(?:[A-Z]{2}\s\d{5}(?:-\d{4})?|\d{4,5}(?:-\d{3})?\s\p{Lu}|\d{5}\b)/u;

export function recognizeStreetAddresses(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  for (const { pattern } of PATTERNS) {
    pattern.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(text)) !== null) {
      const start = match.index;
      if (continuesWord(text, start)) {
        pattern.lastIndex = start + 1;
        continue;
      }
      const end = start + match[0].length;
      const hasContext = contextBefore(text, start, CONTEXT, 40) || POSTCODE_AFTER.test(text.slice(end, end + 40));
      found.push({ type: 'street_address', start, end, confidence: boosted(0.7, hasContext, 0.15) });
    }
  }
  return found;
}
