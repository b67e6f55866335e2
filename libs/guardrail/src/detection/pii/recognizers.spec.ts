import { recognizeDatesOfBirth } from './date-of-birth.recognizer';
import { recognizeEmails } from './email.recognizer';
import { recognizeIbans } from './iban.recognizer';
import { recognizeIpAddresses } from './ip-address.recognizer';
import { recognizePassports } from './passport.recognizer';
import { recognizePaymentCards } from './payment-card.recognizer';
import { recognizePersonNames } from './person-name.recognizer';
import { recognizePhones } from './phone.recognizer';
import type { PiiCandidate } from './pii-candidate.model';
import { recognizeStreetAddresses } from './street-address.recognizer';
import { recognizeUsSsns } from './us-ssn.recognizer';

/** The texts a recognizer reports (offsets are checked by slicing the input). */
const texts = (input: string, found: PiiCandidate[]): string[] => found.map((entity) => input.slice(entity.start, entity.end));

describe('email recognizer', () => {
  it('finds addresses with plus tags and subdomains', () => {
    const input = 'Write to ana.ruiz+orders@mail.example.org or support@northwind.io.';
    expect(texts(input, recognizeEmails(input))).toEqual(['ana.ruiz+orders@mail.example.org', 'support@northwind.io']);
  });

  it('skips SCP syntax, package versions, decorators and reserved TLDs', () => {
    const input = 'git@github.com:org/repo.git lodash@4.17.21 @Component ci@builds.invalid';
    expect(recognizeEmails(input)).toEqual([]);
  });

  it('finds internationalized addresses in spaced scripts without swallowing neighbouring CJK text', () => {
    const input = 'Écrivez à renée.dupont@exemple.fr, пишите иван@почта.рф, or müller@bücher.de; 連絡先はtaro@example.jpまで';
    expect(texts(input, recognizeEmails(input))).toEqual(['renée.dupont@exemple.fr', 'иван@почта.рф', 'müller@bücher.de', 'taro@example.jp']);
  });

  it('reads bracketed obfuscation', () => {
    const input = 'mail john.doe [at] example [dot] com';
    expect(texts(input, recognizeEmails(input))).toEqual(['john.doe [at] example [dot] com']);
  });
});

describe('phone recognizer', () => {
  const budget = () => ({ validations: 64 });

  it('validates international and national formats', () => {
    const input = 'Call +44 20 7946 0958 or (415) 555-0134, Paris +33 6 12 34 56 78.';
    expect(texts(input, recognizePhones(input, [], budget()))).toEqual(['+44 20 7946 0958', '(415) 555-0134', '+33 6 12 34 56 78']);
  });

  it('rejects dates, versions, postcodes, references and digit lists', () => {
    const input = 'On 2024-03-14 build 2024.11.05.1432 shipped to 01310-100; invoice 2024-117; scores 1 2 3 4 5 6 7 8';
    expect(recognizePhones(input, [], budget())).toEqual([]);
  });

  it('needs context for unformatted national numbers', () => {
    expect(recognizePhones('order 4155550134 shipped', [], budget())).toEqual([]);
    expect(texts('phone: 4155550134', recognizePhones('phone: 4155550134', [], budget()))).toEqual(['4155550134']);
  });
});

describe('payment card recognizer', () => {
  it('accepts Luhn-valid numbers in issuer ranges with printed grouping', () => {
    const input = 'Visa 4111 1111 1111 1111, Amex 3714-496353-98431, compact 5555555555554444';
    expect(texts(input, recognizePaymentCards(input))).toEqual(['4111 1111 1111 1111', '3714-496353-98431', '5555555555554444']);
  });

  it('rejects Luhn failures, unknown issuers and mixed separators', () => {
    expect(recognizePaymentCards('4111 1111 1111 1112 and 9111 1111 1111 1111 and 4111-1111 1111-1111')).toEqual([]);
  });

  it('drops trailing digits after the card', () => {
    const input = 'card 4111 1111 1111 1111 2027';
    expect(texts(input, recognizePaymentCards(input))).toEqual(['4111 1111 1111 1111']);
  });
});

describe('IBAN recognizer', () => {
  it('finds printed and compact IBANs and stops at the country length', () => {
    const input = 'IBAN DE89 3704 0044 0532 0130 00 EUR, GB82WEST12345698765432.';
    expect(texts(input, recognizeIbans(input))).toEqual(['DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432']);
  });

  it('rejects a wrong checksum', () => {
    expect(recognizeIbans('DE00 1234 5678 9012 3456 78')).toEqual([]);
  });
});

describe('US SSN recognizer', () => {
  it('finds dashed numbers and bare ones next to SSN context', () => {
    const input = 'SSN 512-44-9810; social security number 287654321';
    expect(texts(input, recognizeUsSsns(input))).toEqual(['512-44-9810', '287654321']);
  });

  it('rejects invalid ranges and unlabelled bare digits', () => {
    expect(recognizeUsSsns('000-12-3456 666-45-1234 912-12-3456 order 287654321')).toEqual([]);
  });
});

describe('IP address recognizer', () => {
  it('finds public IPv4 and IPv6 addresses', () => {
    const input = 'from 203.0.113.77 and 2001:db8:85a3::8a2e:370:7334 today';
    expect(texts(input, recognizeIpAddresses(input))).toEqual(['203.0.113.77', '2001:db8:85a3::8a2e:370:7334']);
  });

  it('skips loopback, private ranges, versions and code', () => {
    expect(recognizeIpAddresses('127.0.0.1 10.0.3.17 192.168.1.1 v1.2.3.4 version 10.2.3.4 std::vector 12:30:45 ::1')).toEqual([]);
  });
});

describe('date of birth recognizer', () => {
  it('needs a birth cue and reads several languages and formats', () => {
    const input = 'born on 14 March 1985; Geburtsdatum: 03.04.1990; née le 2 août 1977; DOB 1962-11-30';
    expect(texts(input, recognizeDatesOfBirth(input))).toEqual(['14 March 1985', '03.04.1990', '2 août 1977', '1962-11-30']);
  });

  it('ignores dates without a cue', () => {
    expect(recognizeDatesOfBirth('The meeting moved to 14 March 2025.')).toEqual([]);
  });
});

describe('passport recognizer', () => {
  it('needs a passport cue', () => {
    const input = 'Passport number: X12345678. Reisepassnummer C01X00T47, passaporto n. YA1234567';
    expect(texts(input, recognizePassports(input))).toEqual(['X12345678', 'C01X00T47', 'YA1234567']);
    expect(recognizePassports('Reference X12345678')).toEqual([]);
  });
});

describe('street address recognizer', () => {
  it('reads street lines in six layouts', () => {
    const input = [
      'Ship to 742 Evergreen Terrace, Springfield, IL 62704.',
      'Wohnhaft Hauptstraße 12a, 10115 Berlin.',
      'Adresse : 8 rue de la Paix, 75002 Paris.',
      'Vivo en Calle de Toledo 52, Madrid.',
      'Abito in Via Giuseppe Verdi 18, Roma.',
      'Moro na Rua Augusta 274, Lisboa.',
    ].join(' ');
    expect(texts(input, recognizeStreetAddresses(input))).toEqual([
      '742 Evergreen Terrace', 'Hauptstraße 12a', '8 rue de la Paix', 'Calle de Toledo 52', 'Via Giuseppe Verdi 18', 'Rua Augusta 274',
    ]);
  });

  it('includes a unit on the same line', () => {
    const input = 'at 100 North Michigan Street, Apt 4B today';
    expect(texts(input, recognizeStreetAddresses(input))).toEqual(['100 North Michigan Street, Apt 4B']);
  });
});

describe('person name recognizer', () => {
  it('uses cues, honorifics and sign-offs, without the honorific in the span', () => {
    const input = 'Hi, my name is Sarah Connor. Please ask Dr. Emily Carter.\n\nBest regards,\nJürgen Weiß';
    expect(texts(input, recognizePersonNames(input))).toEqual(['Sarah Connor', 'Emily Carter', 'Jürgen Weiß']);
  });

  it('reads multilingual self-introductions', () => {
    const input = "Je m'appelle Hélène Dupré. Me llamo Raúl Ortega. Olá, sou a Inês Carvalho.";
    expect(texts(input, recognizePersonNames(input)).sort()).toEqual(['Hélène Dupré', 'Inês Carvalho', 'Raúl Ortega']);
  });

  it('does not report organizations or companies named after people', () => {
    const input = 'Contact Morgan Stanley or Acme Holdings today. Customer: Northwind Traders Ltd';
    expect(recognizePersonNames(input)).toEqual([]);
  });

  it('does not take greetings to teams for names', () => {
    expect(recognizePersonNames('Dear Acme Support Team,\nHi there, Hello World')).toEqual([]);
  });
});
