import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { digits, letters, pick, type Random } from './corpus.helpers';

/**
 * Fake but well-formed personal data for the corpus: Luhn-valid card numbers in real issuer
 * ranges, IBANs with correct check digits, SSNs in issued ranges, phone numbers that are valid
 * for their numbering plan. None belongs to a real person.
 */
export type Language = 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt';

export const FIRST_NAMES: Record<Language, readonly string[]> = {
  en: ['James', 'Emily', 'Michael', 'Sarah', 'David', 'Jessica', 'Daniel', 'Olivia', 'Ryan', 'Hannah', 'Keanu', 'Priya', 'Ngozi', 'Bartholomew', 'Siobhan', 'Marcus', 'Chloe', 'Ethan', 'Grace', 'Tyler'],
  de: ['Jürgen', 'Anneliese', 'Lukas', 'Sabine', 'Matthias', 'Katrin', 'Florian', 'Ursula', 'Tobias', 'Lena', 'Wolfgang', 'Greta', 'Henrike', 'Moritz', 'Ingrid'],
  fr: ['Camille', 'Julien', 'Élodie', 'François', 'Manon', 'Théo', 'Amandine', 'Sébastien', 'Inès', 'Guillaume', 'Margaux', 'Baptiste', 'Solène'],
  es: ['Alejandro', 'Lucía', 'Javier', 'Carmen', 'Álvaro', 'Rocío', 'Sergio', 'Beatriz', 'Raúl', 'Paula', 'Iñigo', 'Ainhoa', 'Mateo'],
  it: ['Giuseppe', 'Francesca', 'Lorenzo', 'Chiara', 'Matteo', 'Giulia', 'Alessandro', 'Federica', 'Davide', 'Martina', 'Ludovica', 'Tommaso'],
  pt: ['João', 'Mariana', 'Tiago', 'Beatriz', 'Rafael', 'Leonor', 'Gonçalo', 'Inês', 'Duarte', 'Catarina', 'Thiago', 'Larissa'],
};

export const LAST_NAMES: Record<Language, readonly string[]> = {
  en: ['Smith', 'Johnson', 'Williams', 'Brown', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Thompson', 'Okafor', 'Nakamura', "O'Connor", 'McAllister', 'Fitzgerald', 'Patel', 'Hughes'],
  de: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Becker', 'Hoffmann', 'Schäfer', 'Koch', 'Richter', 'Wagner', 'Zimmermann', 'Krüger'],
  fr: ['Martin', 'Bernard', 'Dubois', 'Lefèvre', 'Moreau', 'Laurent', 'Girard', 'Rousseau', 'Fontaine', 'Chevalier', 'Mercier', 'Blanc'],
  es: ['García', 'Fernández', 'González', 'Rodríguez', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Ruiz', 'Navarro', 'Ortega'],
  it: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo'],
  pt: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Martins', 'Sousa', 'Fernandes', 'Gonçalves', 'Carvalho'],
};

export function personName(random: Random, language: Language): { first: string; last: string; full: string } {
  const first = pick(random, FIRST_NAMES[language]);
  const last = pick(random, LAST_NAMES[language]);
  return { first, last, full: `${first} ${last}` };
}

function asciiFold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/[^A-Za-z]/g, '').toLowerCase();
}

const DOMAINS: Record<Language, readonly string[]> = {
  en: ['example.com', 'mail.example.org', 'acme-corp.com', 'northwind.io', 'contoso.co.uk', 'gmail.com', 'outlook.com'],
  de: ['beispiel.de', 'web.de', 'gmx.net', 'firma-schulz.de', 't-online.de'],
  fr: ['exemple.fr', 'orange.fr', 'laposte.net', 'societe-durand.fr'],
  es: ['ejemplo.es', 'telefonica.net', 'empresa-lopez.es', 'correo.mx'],
  it: ['esempio.it', 'libero.it', 'azienda-rossi.it', 'tiscali.it'],
  pt: ['exemplo.pt', 'sapo.pt', 'empresa-silva.com.br', 'uol.com.br'],
};

export function email(random: Random, language: Language, name: { first: string; last: string }): string {
  const first = asciiFold(name.first);
  const last = asciiFold(name.last);
  const local = pick(random, [`${first}.${last}`, `${first[0]}${last}`, `${first}_${last}${digits(random, 2)}`, `${first}.${last[0]}+orders`, `${last}.${first}`]);
  return `${local}@${pick(random, DOMAINS[language])}`;
}

interface PhonePlan {
  region: CountryCode;
  international: (random: Random) => string;
  national: (random: Random) => string;
}

const PHONE_PLANS: Record<Language, PhonePlan> = {
  en: {
    region: 'US',
    international: (r) => `+1 ${pick(r, ['212', '415', '312', '617', '206', '305', '512', '646'])} ${pick(r, ['2', '3', '4', '5', '6', '7', '8'])}${digits(r, 2)} ${digits(r, 4)}`,
    national: (r) => {
      const area = pick(r, ['212', '415', '312', '617', '206', '305', '512', '646']);
      const exchange = `${pick(r, ['2', '3', '4', '5', '6', '7', '8'])}${digits(r, 2)}`;
      const line = digits(r, 4);
      return pick(r, [`(${area}) ${exchange}-${line}`, `${area}-${exchange}-${line}`, `${area}.${exchange}.${line}`]);
    },
  },
  de: {
    region: 'DE',
    international: (r) => pick(r, [`+49 30 ${digits(r, 8)}`, `+49 151 ${digits(r, 8)}`, `+49 89 ${digits(r, 7)}`]),
    national: (r) => pick(r, [`030 ${digits(r, 8)}`, `0151 ${digits(r, 8)}`, `089 ${digits(r, 7)}`]),
  },
  fr: {
    region: 'FR',
    international: (r) => `+33 ${pick(r, ['1', '6', '7'])} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)}`,
    national: (r) => `0${pick(r, ['1', '6', '7'])} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)} ${digits(r, 2)}`,
  },
  es: {
    region: 'ES',
    international: (r) => `+34 ${pick(r, ['91', '93', '61', '62'])}${digits(r, 1)} ${digits(r, 3)} ${digits(r, 3)}`,
    national: (r) => `${pick(r, ['91', '93', '61', '62'])}${digits(r, 1)} ${digits(r, 3)} ${digits(r, 3)}`,
  },
  it: {
    region: 'IT',
    international: (r) => pick(r, [`+39 06 ${digits(r, 4)} ${digits(r, 4)}`, `+39 347 ${digits(r, 3)} ${digits(r, 4)}`]),
    national: (r) => pick(r, [`06 ${digits(r, 4)} ${digits(r, 4)}`, `347 ${digits(r, 3)} ${digits(r, 4)}`]),
  },
  pt: {
    region: 'PT',
    international: (r) => pick(r, [`+351 21${digits(r, 1)} ${digits(r, 3)} ${digits(r, 3)}`, `+351 91${digits(r, 1)} ${digits(r, 3)} ${digits(r, 3)}`]),
    national: (r) => pick(r, [`21${digits(r, 1)} ${digits(r, 3)} ${digits(r, 3)}`, `91${digits(r, 1)} ${digits(r, 3)} ${digits(r, 3)}`]),
  },
};

/** A phone number valid in its numbering plan (re-drawn until libphonenumber agrees). */
export function phone(random: Random, language: Language, international: boolean): string {
  const plan = PHONE_PLANS[language];
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = international ? plan.international(random) : plan.national(random);
    if (parsePhoneNumberFromString(candidate, plan.region)?.isValid()) return candidate;
  }
  throw new Error(`could not draw a valid ${language} phone number`);
}

function luhnCheckDigit(partial: string): string {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    let value = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
  }
  return String((10 - (sum % 10)) % 10);
}

const CARD_ISSUERS: ReadonlyArray<{ prefixes: readonly string[]; length: number; grouping: number[] }> = [
  { prefixes: ['4'], length: 16, grouping: [4, 4, 4, 4] },
  { prefixes: ['51', '52', '53', '54', '55', '2221', '2720'], length: 16, grouping: [4, 4, 4, 4] },
  { prefixes: ['34', '37'], length: 15, grouping: [4, 6, 5] },
  { prefixes: ['6011', '65'], length: 16, grouping: [4, 4, 4, 4] },
  { prefixes: ['3530', '3566'], length: 16, grouping: [4, 4, 4, 4] },
];

export function creditCard(random: Random): string {
  const issuer = pick(random, CARD_ISSUERS);
  const prefix = pick(random, issuer.prefixes);
  const body = prefix + digits(random, issuer.length - prefix.length - 1);
  const number = body + luhnCheckDigit(body);
  const separator = pick(random, [' ', '-', '', ' ']);
  if (separator === '') return number;
  const groups: string[] = [];
  let at = 0;
  for (const size of issuer.grouping) {
    groups.push(number.slice(at, at + size));
    at += size;
  }
  return groups.join(separator);
}

const IBAN_FORMATS: ReadonlyArray<{ country: string; bban: (random: Random) => string }> = [
  { country: 'DE', bban: (r) => digits(r, 18) },
  { country: 'FR', bban: (r) => digits(r, 10) + letters(r, 1) + digits(r, 10) + digits(r, 2) },
  { country: 'ES', bban: (r) => digits(r, 20) },
  { country: 'IT', bban: (r) => letters(r, 1) + digits(r, 10) + digits(r, 12) },
  { country: 'PT', bban: (r) => digits(r, 21) },
  { country: 'NL', bban: (r) => letters(r, 4) + digits(r, 10) },
  { country: 'GB', bban: (r) => letters(r, 4) + digits(r, 14) },
  { country: 'BE', bban: (r) => digits(r, 12) },
  { country: 'AT', bban: (r) => digits(r, 16) },
  { country: 'CH', bban: (r) => digits(r, 17) },
];

function mod97(numeric: string): number {
  let remainder = 0;
  for (const char of numeric) remainder = (remainder * 10 + Number(char)) % 97;
  return remainder;
}

export function iban(random: Random, grouped: boolean): string {
  const format = IBAN_FORMATS[Math.floor(random() * IBAN_FORMATS.length)]!;
  const bban = format.bban(random);
  const numeric = (bban + format.country + '00').replace(/[A-Z]/g, (char) => String(char.charCodeAt(0) - 55));
  const check = String(98 - mod97(numeric)).padStart(2, '0');
  const compact = `${format.country}${check}${bban}`;
  return grouped ? compact.replace(/(.{4})/g, '$1 ').trim() : compact;
}

export function usSsn(random: Random): string {
  let area: number;
  do area = 1 + Math.floor(random() * 898);
  while (area === 666);
  const group = 1 + Math.floor(random() * 99);
  const serial = 1 + Math.floor(random() * 9999);
  return `${String(area).padStart(3, '0')}-${String(group).padStart(2, '0')}-${String(serial).padStart(4, '0')}`;
}

export function ipv4(random: Random): string {
  const first = pick(random, [23, 45, 62, 81, 93, 104, 151, 178, 185, 203, 212, 217]);
  return `${first}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${1 + Math.floor(random() * 254)}`;
}

export function ipv6(random: Random): string {
  const group = (): string => Math.floor(random() * 65536).toString(16);
  return pick(random, [`2001:db8:${group()}:${group()}::${group()}`, `2a02:${group()}:${group()}:${group()}:${group()}:${group()}:${group()}:${group()}`, `2a01:4f8:${group()}:${group()}::${group()}`]);
}

const MONTHS: Record<Language, readonly string[]> = {
  en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  de: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
  fr: ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  it: ['gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'],
  pt: ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'],
};

export function birthDate(random: Random, language: Language): string {
  const year = 1945 + Math.floor(random() * 60);
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  const dd = String(day).padStart(2, '0');
  const mm = String(month).padStart(2, '0');
  const name = MONTHS[language][month - 1]!;
  switch (language) {
    case 'en':
      return pick(random, [`${name} ${day}, ${year}`, `${day} ${name} ${year}`, `${mm}/${dd}/${year}`, `${year}-${mm}-${dd}`]);
    case 'de':
      return pick(random, [`${dd}.${mm}.${year}`, `${day}. ${name} ${year}`]);
    case 'fr':
      return pick(random, [`${dd}/${mm}/${year}`, `${day} ${name} ${year}`]);
    case 'es':
      return pick(random, [`${dd}/${mm}/${year}`, `${day} de ${name} de ${year}`]);
    case 'it':
      return pick(random, [`${dd}/${mm}/${year}`, `${day} ${name} ${year}`]);
    case 'pt':
      return pick(random, [`${dd}/${mm}/${year}`, `${day} de ${name} de ${year}`]);
  }
}

export function passportNumber(random: Random, language: Language): string {
  switch (language) {
    case 'en':
      return pick(random, [digits(random, 9), letters(random, 1) + digits(random, 8)]);
    case 'de':
      return letters(random, 1, 'CFGHJK') + digits(random, 2) + letters(random, 1, 'CFGHJKLMNPRTVWXYZ') + digits(random, 2) + letters(random, 1, 'CFGHJKLMNPRTVWXYZ') + digits(random, 2);
    case 'fr':
      return digits(random, 2) + letters(random, 2) + digits(random, 5);
    case 'es':
      return letters(random, 3) + digits(random, 6);
    case 'it':
      return letters(random, 2) + digits(random, 7);
    case 'pt':
      return letters(random, 1) + digits(random, 6);
  }
}

const STREETS: Record<Language, ReadonlyArray<(random: Random) => string>> = {
  en: [
    (r) => `${1 + Math.floor(r() * 9800)} ${pick(r, ['Maple', 'Oak', 'Cedar', 'Elm', 'Washington', 'Lake', 'Hillside', 'Sunset', 'Park', 'Highland'])} ${pick(r, ['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Boulevard', 'Court', 'Terrace'])}`,
    (r) => `${1 + Math.floor(r() * 9800)} ${pick(r, ['Maple', 'Oak', 'Pine', 'Main', 'Church', 'Mill'])} ${pick(r, ['St.', 'Ave', 'Rd', 'Blvd', 'Dr'])}`,
    (r) => `${100 + Math.floor(r() * 900)} ${pick(r, ['North', 'West'])} ${pick(r, ['Michigan', 'Broad', 'Market'])} Street, Apt ${1 + Math.floor(r() * 30)}${pick(r, ['A', 'B', 'C'])}`,
  ],
  de: [
    (r) => `${pick(r, ['Haupt', 'Bahnhof', 'Garten', 'Schiller', 'Goethe', 'Linden', 'Berg'])}straße ${1 + Math.floor(r() * 120)}`,
    (r) => `${pick(r, ['Am', 'Berliner', 'Münchner', 'Frankfurter'])}${' '}${pick(r, ['Straße', 'Allee', 'Platz'])} ${1 + Math.floor(r() * 90)}`.replace(/^Am (Straße|Allee|Platz)/, 'Berliner $1'),
    (r) => `${pick(r, ['Ahorn', 'Birken', 'Kastanien', 'Rosen'])}weg ${1 + Math.floor(r() * 60)}${pick(r, ['', 'a', 'b'])}`,
  ],
  fr: [
    (r) => `${1 + Math.floor(r() * 140)} ${pick(r, ['rue', 'avenue', 'boulevard'])} ${pick(r, ['de la République', 'Victor Hugo', 'du Général Leclerc', 'des Lilas', 'Jean Jaurès', 'de Rivoli'])}`,
  ],
  es: [
    (r) => `${pick(r, ['Calle', 'Avenida', 'Paseo'])} ${pick(r, ['Mayor', 'de Alcalá', 'del Prado', 'de la Castellana', 'Gran Vía', 'de Gracia'])} ${1 + Math.floor(r() * 200)}`,
    (r) => `${pick(r, ['Calle', 'Avenida'])} ${pick(r, ['Serrano', 'Velázquez', 'de Goya'])}, ${1 + Math.floor(r() * 200)}`,
  ],
  it: [
    (r) => `${pick(r, ['Via', 'Viale', 'Corso', 'Piazza'])} ${pick(r, ['Roma', 'Garibaldi', 'Giuseppe Verdi', 'della Repubblica', 'Vittorio Emanuele', 'Dante'])} ${1 + Math.floor(r() * 180)}`,
    (r) => `Via ${pick(r, ['Manzoni', 'Cavour', 'dei Mille'])}, ${1 + Math.floor(r() * 120)}`,
  ],
  pt: [
    (r) => `${pick(r, ['Rua', 'Avenida', 'Travessa'])} ${pick(r, ['Augusta', 'da Liberdade', 'do Carmo', 'Paulista', 'das Flores', 'de Santa Catarina'])} ${1 + Math.floor(r() * 300)}`,
    (r) => `Rua ${pick(r, ['Garrett', 'do Ouro', 'Oscar Freire'])}, ${1 + Math.floor(r() * 300)}`,
  ],
};

export function streetAddress(random: Random, language: Language): string {
  return pick(random, STREETS[language])(random);
}

export const CITIES: Record<Language, readonly string[]> = {
  en: ['Springfield, IL 62704', 'Portland, OR 97205', 'Austin, TX 78701', 'Boston, MA 02116', 'Denver, CO 80202'],
  de: ['10115 Berlin', '80331 München', '20095 Hamburg', '50667 Köln'],
  fr: ['75001 Paris', '69002 Lyon', '13001 Marseille', '31000 Toulouse'],
  es: ['28013 Madrid', '08001 Barcelona', '41001 Sevilla', '46001 Valencia'],
  it: ['00184 Roma', '20121 Milano', '50123 Firenze', '10121 Torino'],
  pt: ['1100-148 Lisboa', '4000-322 Porto', '01310-100 São Paulo', '3000-123 Coimbra'],
};
