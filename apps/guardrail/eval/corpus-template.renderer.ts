import { ALPHABETS, fakePassword, fakePrivateKey, renderSample, SECRET_RULES, seededRandom } from '@gateway/guardrail/testing';

/**
 * Fills secret-case templates with generated fakes. Placeholders are resolved innermost first:
 *   {{secret:<rule-id>}}            a fake credential of that rule's shape
 *   {{private-key:<KIND>}}          a PEM private key block ({{private-key-truncated:KIND}} cuts it)
 *   {{password}} {{password-url}}   a strong password (URL-safe variant)
 *   {{token}}                       a random 40-character token
 *   {{zw:secret:<rule-id>}}         a fake with zero-width spaces inside
 *   {{b64:…}} {{hex:…}} {{url:…}} {{html:…}}   the inner text encoded
 */
const INNERMOST = /\{\{([a-z0-9-]+)(?::([^{}]*))?\}\}/;

export function resolveTemplate(template: string, seed: number): string {
  const random = seededRandom(seed);
  const rules = new Map(SECRET_RULES.map((rule) => [rule.id, rule]));
  const secretFor = (ruleId: string): string => {
    const rule = rules.get(ruleId);
    if (rule === undefined) throw new Error(`unknown secret rule ${ruleId}`);
    return renderSample({ secret: rule.sample.secret }, random).secret;
  };
  let text = template;
  for (let guard = 0; guard < 50; guard++) {
    const match = INNERMOST.exec(text);
    if (match === null) return text;
    const [whole, name, argument = ''] = match;
    let replacement: string;
    switch (name) {
      case 'secret':
        replacement = secretFor(argument);
        break;
      case 'zw':
        replacement = [...secretFor(argument.replace(/^secret:/, ''))].join('\u200b');
        break;
      case 'private-key':
        replacement = fakePrivateKey(random, argument).secret;
        break;
      case 'private-key-truncated':
        replacement = fakePrivateKey(random, argument).secret.split('\n').slice(0, 6).join('\n');
        break;
      case 'password':
        replacement = fakePassword(random);
        break;
      case 'password-url':
        replacement = fakePassword(random).replace(/[^A-Za-z0-9]/g, '') + '-' + fakePassword(random, 6).replace(/[^A-Za-z0-9]/g, 'x');
        break;
      case 'token':
        replacement = renderSample({ secret: [[ALPHABETS.alnum, 40]] }, random).secret;
        break;
      case 'b64':
        replacement = Buffer.from(argument, 'utf8').toString('base64');
        break;
      case 'hex':
        replacement = Buffer.from(argument, 'utf8').toString('hex');
        break;
      case 'url':
        replacement = [...Buffer.from(argument, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
        break;
      case 'html':
        replacement = [...argument].map((char) => `&#${char.codePointAt(0)};`).join('');
        break;
      default:
        throw new Error(`unknown placeholder ${whole}`);
    }
    text = text.slice(0, match.index) + replacement + text.slice(match.index + whole.length);
  }
  throw new Error(`template did not resolve: ${template}`);
}
