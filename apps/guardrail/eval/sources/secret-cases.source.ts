import { SECRET_RULES } from '@gateway/guardrail/testing';
import type { EvalCase } from '../eval.types';
import { pick, type Random } from './corpus.helpers';

/**
 * Secret cases are stored as templates with `{{secret:<rule-id>}}`, `{{private-key:<kind>}}`
 * or `{{password}}` placeholders; run-eval fills them with generated fakes. Each provider rule
 * appears in at least one realistic context (env file, config, code, shell, chat message).
 */
const CONTEXTS: ReadonlyArray<(placeholder: string, provider: string) => string> = [
  (s, p) => `# .env.production\nNODE_ENV=production\n${p.toUpperCase().replace(/[^A-Z]+/g, '_')}_KEY=${s}\nLOG_LEVEL=info`,
  (s) => `Hey, can you check why this call fails? I'm using the key ${s} and get a 401.`,
  (s) => `config = {\n  "timeout": 30,\n  "credential": "${s}",\n  "retries": 3\n}`,
  (s) => `curl -s https://api.service.example/v1/items -H "X-Api-Key: ${s}"`,
  (s, p) => `settings.yaml:\n  ${p.toLowerCase().replace(/[^a-z]+/g, '_')}:\n    token: ${s}\n    region: eu-west-1`,
  (s) => `client = Client(api_key="${s}")\nresult = client.list()`,
  (s) => `Output of env | sort:\nHOME=/home/app\nSERVICE_CREDENTIAL=${s}\nPATH=/usr/bin`,
];

/** Rules whose shape needs its own context line (the sample carries it). */
const SELF_CONTAINED = new Set([
  'aws-secret-access-key', 'gcp-service-account-key-id', 'azure-storage-account-key', 'azure-sas-token', 'azure-cognitive-key',
  'slack-webhook-url', 'twilio-auth-token', 'mailgun-api-key', 'jwt', 'connection-string-password', 'http-basic-auth',
  'http-bearer-token', 'discord-webhook-url', 'telegram-bot-token', 'datadog-api-key', 'mistral-api-key', 'cohere-api-key',
  'okta-api-token', 'cloudflare-api-token', 'azure-ad-client-secret',
]);

const EXTRA: ReadonlyArray<{ template: string; tag: string }> = [
  { template: 'Here is the deploy key, keep it safe:\n{{private-key:RSA}}', tag: 'pem' },
  { template: '~/.ssh/id_ed25519 contents:\n{{private-key:OPENSSH}}', tag: 'pem' },
  { template: 'ec.pem\n{{private-key:EC}}\n(generated with openssl ecparam)', tag: 'pem' },
  { template: 'Pasting the first part of the key, the rest got cut off:\n{{private-key-truncated:RSA}}', tag: 'pem' },
  { template: 'DB_PASSWORD={{password}}\nDB_USER=orders', tag: 'generic' },
  { template: 'spring.datasource.password: {{password}}', tag: 'generic' },
  { template: '{"username": "svc-report", "password": "{{password}}"}', tag: 'generic' },
  { template: 'my wifi password is {{password}} if you need it', tag: 'generic' },
  { template: 'Das Passwort für den Server lautet: {{password}}', tag: 'generic' },
  { template: 'La contraseña del panel es {{password}}', tag: 'generic' },
  { template: 'admin_pwd = "{{password}}"  # TODO move to vault', tag: 'generic' },
  { template: '<add key="SmtpPassword" value="{{password}}" />', tag: 'generic' },
  { template: 'export API_TOKEN="{{token}}"', tag: 'generic' },
  { template: 'secret_key: {{token}}', tag: 'generic' },
  { template: 'mysql://root:{{password-url}}@10.0.4.12:3306/shop', tag: 'connection' },
  { template: 'MONGO_URI=mongodb+srv://app:{{password-url}}@cluster0.abcde.mongodb.net/prod', tag: 'connection' },
  { template: 'redis://default:{{password-url}}@cache.internal:6379/0', tag: 'connection' },
  { template: 'amqp://queue_user:{{password-url}}@rabbit.internal:5672/', tag: 'connection' },
  { template: 'smtps://mailer:{{password-url}}@smtp.example.net:465', tag: 'connection' },
];

/** Obfuscated variants: the same secrets behind encodings and invisible characters. */
const OBFUSCATED: ReadonlyArray<{ rule: string; technique: string; template: string }> = [
  { rule: 'github-pat', technique: 'zero_width', template: 'token: {{zw:secret:github-pat}}' },
  { rule: 'openai-project-key', technique: 'zero_width', template: 'OPENAI_API_KEY={{zw:secret:openai-project-key}}' },
  { rule: 'stripe-secret-key', technique: 'base64', template: 'k8s secret data: {{b64:STRIPE_KEY={{secret:stripe-secret-key}}}}' },
  { rule: 'aws-access-key-id', technique: 'base64', template: 'Decode me: {{b64:aws_access_key_id = {{secret:aws-access-key-id}}}}' },
  { rule: 'slack-bot-token', technique: 'url_encoding', template: 'https://hooks.example.net/relay?t={{url:{{secret:slack-bot-token}}}}' },
  { rule: 'anthropic-api-key', technique: 'html_entities', template: '<code>{{html:{{secret:anthropic-api-key}}}}</code>' },
  { rule: 'google-api-key', technique: 'hex', template: 'payload={{hex:key={{secret:google-api-key}}}}' },
  { rule: 'npm-token', technique: 'zero_width', template: '//registry.npmjs.org/:_authToken={{zw:secret:npm-token}}' },
  { rule: 'huggingface-token', technique: 'base64', template: 'HF creds (base64): {{b64:HF_TOKEN={{secret:huggingface-token}}}}' },
  { rule: 'gitlab-pat', technique: 'url_encoding', template: 'https://ci.example.net/hook?token={{url:{{secret:gitlab-pat}}}}' },
  { rule: 'sendgrid-api-key', technique: 'zero_width', template: 'SENDGRID_API_KEY={{zw:secret:sendgrid-api-key}}' },
  { rule: 'private-key', technique: 'base64', template: 'tls.key: {{b64:{{private-key:RSA}}}}' },
];

export function buildSecretCases(random: Random): EvalCase[] {
  const cases: EvalCase[] = [];
  const add = (template: string, tags: string[], variant = 'plain', pairOf?: string): string => {
    const id = `sec-${String(cases.length + 1).padStart(4, '0')}`;
    cases.push({ id, category: 'secret', template, expect: { secret: true, injection: false }, variant, ...(pairOf === undefined ? {} : { pairOf }), tags });
    return id;
  };
  const plainIds = new Map<string, string>();
  for (const rule of SECRET_RULES) {
    const placeholder = `{{secret:${rule.id}}}`;
    const template = SELF_CONTAINED.has(rule.id)
      ? `${rule.sample.before ?? ''}${placeholder}${rule.sample.after ?? ''}`
      : pick(random, CONTEXTS)(placeholder, rule.provider);
    plainIds.set(rule.id, add(template, [rule.id, rule.provider]));
  }
  for (const extra of EXTRA) {
    const id = add(extra.template, [extra.tag]);
    if (extra.template.includes('private-key:RSA}}') && !plainIds.has('private-key')) plainIds.set('private-key', id);
  }
  for (const variant of OBFUSCATED) add(variant.template, [variant.rule], variant.technique, plainIds.get(variant.rule));
  return cases;
}
