/**
 * Letters from other scripts that render like Latin ones (a subset of Unicode's confusables.txt,
 * chosen for the scripts attackers actually mix into English: Cyrillic, Greek, Armenian,
 * Cherokee, small capitals and regional indicators). Full-width and mathematical letters are
 * not listed because NFKC already maps them.
 */
const PAIRS: ReadonlyArray<readonly [string, string]> = [
  // Cyrillic
  ['аАӑӓ', 'a'], ['ВвЬ', 'b'], ['сСϲҫ', 'c'], ['ԁ', 'd'], ['еЕёЁєҽ', 'e'], ['һҺ', 'h'], ['іІїЇӏӀ', 'i'],
  ['јЈ', 'j'], ['кКқ', 'k'], ['мМ', 'm'], ['пП', 'n'], ['оОӧ', 'o'], ['рРҏ', 'p'], ['ԛԚ', 'q'],
  ['гГ', 'r'], ['ѕЅ', 's'], ['тТ', 't'], ['цЦ', 'u'], ['ѵѴ', 'v'], ['ԝԜшШ', 'w'], ['хХҳ', 'x'],
  ['уУүҮ', 'y'], ['ʐ', 'z'], ['Н', 'h'],
  // Greek
  ['αΑ', 'a'], ['βΒ', 'b'], ['εΕ', 'e'], ['ζΖ', 'z'], ['ηΗ', 'h'], ['ιΙ', 'i'], ['κΚ', 'k'], ['μΜ', 'm'],
  ['Ν', 'n'], ['ν', 'v'], ['οΟσ', 'o'], ['ρΡ', 'p'], ['τΤ', 't'], ['υΥ', 'y'], ['χΧ', 'x'], ['γ', 'y'], ['ϳ', 'j'],
  // Armenian
  ['օ', 'o'], ['ս', 'u'], ['ց', 'g'], ['հ', 'h'], ['ո', 'n'], ['զ', 'q'],
  // Cherokee capitals
  ['Ꭺ', 'a'], ['Ᏼ', 'b'], ['Ꮯ', 'c'], ['Ꭼ', 'e'], ['Ꮋ', 'h'], ['Ꭵ', 'i'], ['Ꮶ', 'k'], ['Ꮇ', 'm'],
  ['Ꮲ', 'p'], ['Ꮪ', 's'], ['Ꭲ', 't'], ['Ꮃ', 'w'], ['Ꮓ', 'z'],
  // Latin small capitals and look-alike letters
  ['ᴀɑ', 'a'], ['ʙ', 'b'], ['ᴄ', 'c'], ['ᴅ', 'd'], ['ᴇ', 'e'], ['ɢɡ', 'g'], ['ʜ', 'h'], ['ɪıɩ', 'i'],
  ['ᴊ', 'j'], ['ᴋ', 'k'], ['ʟ', 'l'], ['ᴍ', 'm'], ['ɴ', 'n'], ['ᴏ', 'o'], ['ᴘ', 'p'], ['ʀ', 'r'],
  ['ꜱ', 's'], ['ᴛ', 't'], ['ᴜ', 'u'], ['ᴠ', 'v'], ['ᴡ', 'w'], ['ʏ', 'y'], ['ᴢ', 'z'],
];

/** Code point to the lowercase Latin letter it imitates. */
export const HOMOGLYPHS: ReadonlyMap<number, string> = (() => {
  const map = new Map<number, string>();
  for (const [chars, latin] of PAIRS) for (const char of chars) map.set(char.codePointAt(0)!, latin);
  // Regional indicator symbols (🇦..🇿) spell letters when not paired into a flag.
  for (let offset = 0; offset < 26; offset++) map.set(0x1f1e6 + offset, String.fromCharCode(0x61 + offset));
  return map;
})();

/** Letters whose decomposition is not base + mark but which readers see as Latin letters. */
export const LATIN_EXPANSIONS: ReadonlyMap<string, string> = new Map([
  ['ß', 'ss'], ['ẞ', 'ss'], ['æ', 'ae'], ['Æ', 'ae'], ['œ', 'oe'], ['Œ', 'oe'], ['ø', 'o'], ['Ø', 'o'],
  ['đ', 'd'], ['Đ', 'd'], ['ł', 'l'], ['Ł', 'l'], ['þ', 'th'], ['Þ', 'th'], ['ð', 'd'], ['Ð', 'd'],
]);
