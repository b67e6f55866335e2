import { wordStartMatches, type PiiCandidate } from './pii-candidate.model';

/**
 * Dates of birth. A date alone is not personal data, so a date counts only when a birth cue
 * ("born", "DOB", "Geburtsdatum", "né le", …) precedes it closely in the same sentence.
 */
const MONTHS = [
  // English
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
  // German
  'januar', 'jänner', 'februar', 'märz', 'maerz', 'mai', 'juni', 'juli', 'oktober', 'dezember',
  // French
  'janvier', 'février', 'fevrier', 'mars', 'avril', 'juin', 'juillet', 'août', 'aout', 'septembre', 'octobre', 'novembre', 'décembre', 'decembre',
  // Spanish
  'enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'setiembre', 'octubre', 'noviembre', 'diciembre',
  // Italian
  'gennaio', 'febbraio', 'aprile', 'maggio', 'giugno', 'luglio', 'settembre', 'ottobre', 'dicembre',
  // Portuguese
  'janeiro', 'fevereiro', 'março', 'marco', 'maio', 'junho', 'julho', 'setembro', 'outubro', 'dezembro',
];
const MONTH = `(?:${[...new Set(MONTHS)].sort((a, b) => b.length - a.length).join('|')})\\.?`;
/** Longest alternatives first, so "20" is not read as "2". */
const DAY = '(?:3[01]|[12]\\d|0?[1-9])';
const MONTH_NUMBER = '(?:1[0-2]|0?[1-9])';
const YEAR = '(?:19\\d\\d|20\\d\\d)';
const ORDINAL = '(?:st|nd|rd|th|er|º|°|\\.)?';

const DATE = new RegExp(
  [
    `${YEAR}-${MONTH_NUMBER}-${DAY}`,
    `${DAY}[./-]${MONTH_NUMBER}[./-](?:${YEAR}|\\d\\d)`,
    `${MONTH_NUMBER}[./-]${DAY}[./-](?:${YEAR}|\\d\\d)`,
    `${DAY}${ORDINAL}\\s(?:de\\s|of\\s)?${MONTH}(?:\\s|,\\s|\\sde\\s)${YEAR}`,
    `${MONTH}\\s${DAY}${ORDINAL},?\\s${YEAR}`,
  ]
    .map((alternative) => `(?:${alternative})(?!\\d)`)
    .join('|'),
  'iu',
);

const CUE = /(?:date of birth|birth ?date|birthday|born(?: on)?|d\.o\.b\.?|dob|geburtsdatum|geburtstag|geboren(?: am)?|geb\.|date de naissance|n[ée]e? le|fecha de nacimiento|nacid[oa](?: el)?|data di nascita|nat[oa] il|data de nascimento|nascid[oa] em)(?!\p{L})/giu;
/** Cue and date must be this close; anything farther usually belongs to another fact. */
const MAX_GAP = 28;

export function recognizeDatesOfBirth(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  for (const cue of wordStartMatches(text, CUE)) {
    const from = cue.index + cue[0].length;
    const window = text.slice(from, from + MAX_GAP + 32);
    if (!/\d/.test(window)) continue;
    const date = DATE.exec(window);
    if (date === null || date.index > MAX_GAP) continue;
    const gap = window.slice(0, date.index);
    if (/[\n;]|\.\s/.test(gap) || /\d/.test(gap)) continue;
    const start = from + date.index;
    if (/\d/.test(text[start - 1] ?? '') || /\d/.test(text[start + date[0].length] ?? '')) continue;
    found.push({ type: 'date_of_birth', start, end: start + date[0].length, confidence: 0.85 });
  }
  return found;
}
