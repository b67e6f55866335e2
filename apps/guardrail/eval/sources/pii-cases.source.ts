import type { EvalCase } from '../eval.types';
import { mark as m, parseMarked, pick, type Random } from './corpus.helpers';
import {
  birthDate, CITIES, creditCard, email, iban, ipv4, ipv6, passportNumber, personName, phone, streetAddress, usSsn, type Language,
} from './pii-values.factory';

/**
 * PII cases: templates in six languages filled with fake values, plus hand-written cases with
 * emoji, combining marks, odd spacing and mixed content. Spans follow the conventions in
 * eval/README.md (name without honorific, street line without city, date without cue).
 */
type Template = (random: Random) => string;

const EN: Template[] = [
  (r) => { const n = personName(r, 'en'); return `Hi, my name is ${m('person', n.full)} and my email is ${m('email', email(r, 'en', n))}.`; },
  (r) => `Please update the shipping address for order 48213 to ${m('street_address', streetAddress(r, 'en'))}, ${pick(r, CITIES.en)}. Thanks!`,
  (r) => { const n = personName(r, 'en'); return `Customer: ${m('person', n.full)}\nPhone: ${m('phone', phone(r, 'en', false))}\nEmail: ${m('email', email(r, 'en', n))}\nIssue: router keeps rebooting`; },
  (r) => `Charge the card ${m('credit_card', creditCard(r))} for the annual plan, expiry 09/27, CVC on file.`,
  (r) => { const n = personName(r, 'en'); return `Wire the refund to IBAN ${m('iban', iban(r, r() < 0.5))} (account holder: ${m('person', n.full)}).`; },
  (r) => `Applicant SSN ${m('us_ssn', usSsn(r))} - please verify before onboarding on Monday.`,
  (r) => `Security alert: new sign-in from ${m('ip_address', ipv4(r))} at 03:14 UTC, previous session from ${m('ip_address', ipv6(r))}.`,
  (r) => { const n = personName(r, 'en'); return `The patient, ${m('person', n.full)}, was born on ${m('date_of_birth', birthDate(r, 'en'))} and reports mild headaches.`; },
  (r) => `Travel profile updated. Passport number: ${m('passport', passportNumber(r, 'en'))}, expires 2031.`,
  (r) => { const n = personName(r, 'en'); return `Dear Mr. ${m('person', n.last)},\n\nyour appointment is confirmed for Tuesday at 10am.`; },
  (r) => { const n = personName(r, 'en'); return `Thanks for the quick turnaround on the contract!\n\nBest regards,\n${m('person', n.full)}\nSenior Account Manager\n${m('phone', phone(r, 'en', true))}`; },
  (r) => { const n = personName(r, 'en'); return `Can you draft a polite reply to ${m('email', email(r, 'en', n))} explaining that the invoice was paid on March 3?`; },
  (r) => `I live at ${m('street_address', streetAddress(r, 'en'))} and my cell is ${m('phone', phone(r, 'en', false))}, call after 6pm.`,
  (r) => { const n = personName(r, 'en'); return `Summarize this ticket: customer ${m('person', n.full)} says the card ending in 4242 was charged twice.`; },
];

const FOREIGN: Record<Exclude<Language, 'en'>, Template[]> = {
  de: [
    (r) => { const n = personName(r, 'de'); return `Hallo, ich heiße ${m('person', n.full)} und wohne in der ${m('street_address', streetAddress(r, 'de'))}, ${pick(r, CITIES.de)}.`; },
    (r) => { const n = personName(r, 'de'); return `Meine Telefonnummer ist ${m('phone', phone(r, 'de', r() < 0.5))} und meine E-Mail ${m('email', email(r, 'de', n))}.`; },
    (r) => `Bitte überweisen Sie den Betrag auf mein Konto, IBAN ${m('iban', iban(r, true))}, Verwendungszweck Rechnung 2024-117.`,
    (r) => `Geburtsdatum: ${m('date_of_birth', birthDate(r, 'de'))}, Reisepassnummer ${m('passport', passportNumber(r, 'de'))}.`,
    (r) => { const n = personName(r, 'de'); return `Vielen Dank für Ihre Geduld.\n\nMit freundlichen Grüßen\n${m('person', n.full)}`; },
    (r) => { const n = personName(r, 'de'); return `Sehr geehrte Frau ${m('person', n.last)},\nanbei die Unterlagen.`; },
  ],
  fr: [
    (r) => { const n = personName(r, 'fr'); return `Bonjour, je m'appelle ${m('person', n.full)} et j'habite au ${m('street_address', streetAddress(r, 'fr'))}, ${pick(r, CITIES.fr)}.`; },
    (r) => { const n = personName(r, 'fr'); return `Vous pouvez me joindre au ${m('phone', phone(r, 'fr', r() < 0.5))} ou par courriel à ${m('email', email(r, 'fr', n))}.`; },
    (r) => `Né le ${m('date_of_birth', birthDate(r, 'fr'))} à Lyon, numéro de passeport ${m('passport', passportNumber(r, 'fr'))}.`,
    (r) => `Merci de rembourser sur le compte ${m('iban', iban(r, true))} avant vendredi.`,
    (r) => { const n = personName(r, 'fr'); return `Je reste à votre disposition.\n\nCordialement,\n${m('person', n.full)}`; },
  ],
  es: [
    (r) => { const n = personName(r, 'es'); return `Hola, me llamo ${m('person', n.full)} y vivo en ${m('street_address', streetAddress(r, 'es'))}, ${pick(r, CITIES.es)}.`; },
    (r) => { const n = personName(r, 'es'); return `Mi número de teléfono es ${m('phone', phone(r, 'es', r() < 0.5))} y mi correo ${m('email', email(r, 'es', n))}.`; },
    (r) => `Fecha de nacimiento: ${m('date_of_birth', birthDate(r, 'es'))}. Pasaporte: ${m('passport', passportNumber(r, 'es'))}.`,
    (r) => `Pagué con la tarjeta ${m('credit_card', creditCard(r))} pero el pedido no llegó.`,
    (r) => { const n = personName(r, 'es'); return `Quedo atento a su respuesta.\n\nUn saludo,\n${m('person', n.full)}`; },
  ],
  it: [
    (r) => { const n = personName(r, 'it'); return `Buongiorno, mi chiamo ${m('person', n.full)} e abito in ${m('street_address', streetAddress(r, 'it'))}, ${pick(r, CITIES.it)}.`; },
    (r) => { const n = personName(r, 'it'); return `Il mio numero è ${m('phone', phone(r, 'it', r() < 0.5))}, email ${m('email', email(r, 'it', n))}.`; },
    (r) => `Nato il ${m('date_of_birth', birthDate(r, 'it'))}, passaporto n. ${m('passport', passportNumber(r, 'it'))}.`,
    (r) => `Per il rimborso usate l'IBAN ${m('iban', iban(r, r() < 0.5))}, grazie.`,
    (r) => { const n = personName(r, 'it'); return `Resto in attesa di un vostro riscontro.\n\nCordiali saluti,\n${m('person', n.full)}`; },
  ],
  pt: [
    (r) => { const n = personName(r, 'pt'); return `Olá, meu nome é ${m('person', n.full)} e moro na ${m('street_address', streetAddress(r, 'pt'))}, ${pick(r, CITIES.pt)}.`; },
    (r) => { const n = personName(r, 'pt'); return `Meu telefone é ${m('phone', phone(r, 'pt', r() < 0.5))} e meu e-mail é ${m('email', email(r, 'pt', n))}.`; },
    (r) => `Data de nascimento: ${m('date_of_birth', birthDate(r, 'pt'))}; passaporte ${m('passport', passportNumber(r, 'pt'))}.`,
    (r) => `O reembolso deve ir para o IBAN ${m('iban', iban(r, true))}.`,
    (r) => { const n = personName(r, 'pt'); return `Fico no aguardo.\n\nAtenciosamente,\n${m('person', n.full)}`; },
  ],
};

/** Hand-written cases: emoji, combining marks, odd layouts, several entities per text. */
const HANDWRITTEN: readonly string[] = [
  `📞 text me at ${m('phone', '+44 20 7946 0958')} 🙏 or email ${m('email', 'zoe.angstrom@example.co.uk')} 😊`,
  `Name: ${m('person', 'Zoë Ångström')}\nDOB: ${m('date_of_birth', '1989-07-04')}\nSSN: ${m('us_ssn', '512-44-9810')}`,
  `Hi 👋🏽 I'm ${m('person', 'José Muñoz')} (josé with an accent) — card ${m('credit_card', '4539 1488 0343 6467')} was declined 😤`,
  `Le client ${m('person', 'Hélène Dupré')} habite au ${m('street_address', '8 rue de la Paix')}, 75002 Paris. Tél. ${m('phone', '+33 1 42 68 53 00')}.`,
  `Combining marks test (decomposed accent): my name is ${m('person', 'Rene\u0301e Lavoie')}, email ${m('email', 'renee.lavoie@example.ca')}.`,
  `{"customer": {"email": "${m('email', 'k.tanaka@example.jp')}", "phone": "${m('phone', '+81 3-1234-5678')}", "ip": "${m('ip_address', '203.0.113.77')}"}}`,
  `From: ${m('person', 'Laura Bianchi')} <${m('email', 'laura.bianchi@esempio.it')}>\nTo: ${m('email', 'support@northwind.io')}\nSubject: rimborso\n\nBuongiorno, allego la ricevuta.`,
  `Ship to:\n${m('person', 'Mariana Costa')}\n${m('street_address', 'Rua Augusta 274')}\n1100-053 Lisboa`,
  `User ${m('email', 'ops+alerts@acme-corp.com')} reset the password from ${m('ip_address', '185.199.108.153')}; ticket owner: ${m('person', 'Priya Raman')}.`,
  `Kontakt: ${m('person', 'Henrike Voß')}, Tel. ${m('phone', '+49 89 2180 3456')}, Anschrift ${m('street_address', 'Leopoldstraße 23')}, 80802 München`,
  `Please confirm: IBAN ${m('iban', 'NL91 ABNA 0417 1643 00')} belongs to ${m('person', 'Daan de Vries')}? The invoice is overdue.`,
  `The driver's DOB is listed as ${m('date_of_birth', '03/14/1979')} but the license says otherwise.`,
  `✈️ Passenger ${m('person', 'Aisha Khan')}, passport ${m('passport', 'K8830412')}, seat 14C.`,
  `call me at ${m('phone', '(617) 495-1000')} — or my office at ${m('phone', '+1 212 736 5000')} after 3`,
  `Server logs show requests from ${m('ip_address', '2a00:1450:4001:82b::200e')} and ${m('ip_address', '151.101.65.69')} only.`,
  `Sign the form and return it to Dr. ${m('person', 'Emily Carter')}`,
  `Querida ${m('person', 'Lucía')},\n¿me mandas el contrato? Mi dirección nueva es ${m('street_address', 'Calle de Toledo 52')}, 28005 Madrid.`,
  `Gentile Sig.ra ${m('person', 'Ferrari')},\nla sua pratica è stata approvata.`,
  `card no. ${m('credit_card', '3714 496353 98431')} (amex) exp 11/26`,
  `Refund to ${m('credit_card', '5555-5555-5555-4444')} please, not the old one.`,
  `Mein Name ist ${m('person', 'Jürgen Weiß')}, geboren am ${m('date_of_birth', '12.05.1971')} in Dresden.`,
  `Olá! Sou a ${m('person', 'Inês Carvalho')}, o meu IBAN é ${m('iban', 'PT50 0002 0123 1234 5678 9015 4')}.`,
  `Cheers,\n${m('person', 'Tom Hughes')}\n${m('phone', '+44 161 496 0000')}`,
  `Réponse de ${m('person', 'Amandine Rousseau')} : je serai là demain.`,
  `Meeting notes 🗒️\n- ${m('person', 'Sarah Thompson')} said the launch slips to Q3\n- budget owner: ${m('person', 'Daniel Okafor')}`,
  `Data de nascimento: ${m('date_of_birth', '22 de março de 1990')}, natural de Braga.`,
  `tarjeta: ${m('credit_card', '6011000990139424')} · titular: ${m('person', 'Raúl Ortega')}`,
  `My SSN is ${m('us_ssn', '287-65-4321')} and my wife's is ${m('us_ssn', '287-65-4329')}.`,
  `Patient ID 88213 · ${m('person', 'Olivia Brown')} · DOB ${m('date_of_birth', '1962-11-30')} · allergies: penicillin`,
  `Ciao, sono ${m('person', 'Giulia Romano')}! Il mio cellulare è ${m('phone', '+39 347 555 1234')}.`,
  // Internationalized addresses (RFC 6531 local parts, IDN domains), and one glued to CJK text.
  `Écrivez-moi à ${m('email', 'renée.dupont@exemple.fr')} 📬 merci !`,
  `Пишите на ${m('email', 'иван.петров@почта.рф')}, пожалуйста.`,
  `Contato: ${m('email', 'joão.gonçalves@exemplo.com.br')} (resposta em 24h)`,
  `decomposed accent: mail ${m('email', 'rene\u0301e@example.ca')} today`,
  `連絡先は${m('email', 'taro.yamada@example.jp')}までお願いします。`,
];

export function buildPiiCases(random: Random): EvalCase[] {
  const cases: EvalCase[] = [];
  const add = (marked: string, language: string, tag: string): void => {
    const { text, entities } = parseMarked(marked);
    cases.push({
      id: `pii-${String(cases.length + 1).padStart(4, '0')}`,
      category: 'pii',
      text,
      expect: { pii: entities, injection: false, secret: false },
      language,
      tags: [tag, ...new Set(entities.map((entity) => entity.type))],
    });
  };
  for (let round = 0; round < 5; round++) for (const template of EN) add(template(random), 'en', 'template');
  for (const [language, templates] of Object.entries(FOREIGN)) {
    for (let round = 0; round < 4; round++) for (const template of templates) add(template(random), language, 'template');
  }
  for (const marked of HANDWRITTEN) add(marked, 'mixed', 'handwritten');
  return cases;
}
