/**
 * Provider secret formats, in the spirit of gitleaks' rule table: each rule has a pattern whose
 * `secret` group is the credential, keywords that must occur (lower-case) before the pattern
 * runs, an entropy floor for the secret, and an allowlist of documented example values.
 *
 * Pattern discipline (see the spec's bounded-time requirement): every quantifier is bounded,
 * and provider tokens start with a negative lookbehind of their own alphabet, so the engine
 * only starts a match where a token starts and each character is scanned a bounded number
 * of times.
 *
 * `sample` describes a syntactically valid FAKE value used by tests and the evaluation corpus;
 * fakes are generated at run time so no credential-shaped string is committed.
 */
export type SampleSegment = string | readonly [alphabet: string, length: number];

export interface SecretSample {
  before?: string;
  secret: readonly SampleSegment[];
  after?: string;
}

export interface SecretRule {
  id: string;
  provider: string;
  pattern: RegExp;
  keywords: readonly string[];
  entropyFloor: number;
  allowlist?: readonly RegExp[];
  confidence: number;
  sample: SecretSample;
}

export const ALPHABETS = {
  alnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  upperAlnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  lowerAlnum: 'abcdefghijklmnopqrstuvwxyz0123456789',
  alpha: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  hex: '0123456789abcdef',
  upperHex: '0123456789ABCDEF',
  digits: '0123456789',
  base32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  bech32: 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L',
} as const;

/** Token starts here: the previous character is not part of a token. */
const B = '(?<![A-Za-z0-9_\\-])';
/** Token ends here. */
const E = '(?![A-Za-z0-9_\\-])';
/** Assignment between a key name and a value: `key = "v"`, `key: v`, `"key" => 'v'`. */
const ASSIGN = `[\\w.-]{0,24}?['"]?\\s{0,3}(?::=|=>|=|:)\\s{0,3}['"]?`;
const EXAMPLE = /EXAMPLE|example|0{8,}|x{8,}|X{8,}/;

function token(
  id: string,
  provider: string,
  body: string,
  keywords: string[],
  sample: SampleSegment[],
  entropyFloor = 3,
  confidence = 0.95,
): SecretRule {
  return {
    id,
    provider,
    pattern: new RegExp(`${B}(?<secret>${body})${E}`, 'g'),
    keywords,
    entropyFloor,
    allowlist: [EXAMPLE],
    confidence,
    sample: { before: `${provider} credential: `, secret: sample },
  };
}

function keyed(
  id: string,
  provider: string,
  keyName: string,
  value: string,
  keywords: string[],
  sample: SecretSample,
  entropyFloor = 3,
  confidence = 0.9,
): SecretRule {
  return {
    id,
    provider,
    pattern: new RegExp(`(?:${keyName})${ASSIGN}(?<secret>${value})`, 'gi'),
    keywords,
    entropyFloor,
    allowlist: [EXAMPLE],
    confidence,
    sample,
  };
}

const { alnum, upperAlnum, lowerAlnum, alpha, hex, digits, base32, base64, base64url, bech32 } = ALPHABETS;

export const SECRET_RULES: readonly SecretRule[] = [
  token('aws-access-key-id', 'AWS', '(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}', ['akia', 'asia', 'abia', 'acca'], ['AKIA', [base32, 16]]),
  keyed('aws-secret-access-key', 'AWS', '(?:aws|amazon)[\\w.-]{0,20}?(?:secret|sk)', '[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])', ['aws', 'amazon'], { before: 'aws_secret_access_key = ', secret: [[base64, 40]] }, 4),
  token('openai-project-key', 'OpenAI', 'sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,250}', ['sk-proj-', 'sk-svcacct-', 'sk-admin-'], ['sk-proj-', [alnum, 58], 'T3BlbkFJ', [alnum, 58]], 4),
  token('openai-legacy-key', 'OpenAI', 'sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}', ['t3blbkfj'], ['sk-', [alnum, 20], 'T3BlbkFJ', [alnum, 20]], 4),
  token('anthropic-api-key', 'Anthropic', 'sk-ant-(?:api|admin|sid)\\d{2}-[A-Za-z0-9_-]{80,120}', ['sk-ant-'], ['sk-ant-api03-', [base64url, 93], 'AA'], 4),
  token('google-api-key', 'Google', 'AIza[0-9A-Za-z_-]{35}', ['aiza'], ['AIza', [base64url, 35]], 3.5),
  token('google-oauth-client-secret', 'Google', 'GOCSPX-[A-Za-z0-9_-]{28}', ['gocspx-'], ['GOCSPX-', [base64url, 28]]),
  token('google-oauth-access-token', 'Google', 'ya29\\.[0-9A-Za-z_-]{30,512}', ['ya29.'], ['ya29.', [base64url, 120]], 3.5),
  {
    id: 'gcp-service-account-key-id',
    provider: 'Google Cloud',
    pattern: /"private_key_id"\s{0,3}:\s{0,3}"(?<secret>[a-f0-9]{40})"/g,
    keywords: ['private_key_id'],
    entropyFloor: 3,
    confidence: 0.9,
    sample: { before: '{"type": "service_account", "private_key_id": "', secret: [[hex, 40]], after: '"}' },
  },
  {
    id: 'azure-storage-account-key',
    provider: 'Azure',
    pattern: /AccountKey=(?<secret>[A-Za-z0-9+/]{86}==)/g,
    keywords: ['accountkey='],
    entropyFloor: 4,
    confidence: 0.95,
    sample: { before: 'DefaultEndpointsProtocol=https;AccountName=contosodata;AccountKey=', secret: [[base64, 86], '=='], after: ';EndpointSuffix=core.windows.net' },
  },
  {
    id: 'azure-ad-client-secret',
    provider: 'Azure',
    pattern: /(?<![A-Za-z0-9_~.-])(?<secret>[a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?![A-Za-z0-9_~.-])/g,
    keywords: ['q~'],
    entropyFloor: 3,
    confidence: 0.9,
    sample: { before: 'AZURE_CLIENT_SECRET=', secret: [[alnum, 3], [digits, 1], 'Q~', [alnum, 34]] },
  },
  {
    id: 'azure-sas-token',
    provider: 'Azure',
    pattern: /(?:[?&]sv=\d{4}-\d{2}-\d{2}[^\s"'<>]{0,300}?[?&]sig=|SharedAccessSignature=[^\s"'<>]{0,200}?sig=)(?<secret>[A-Za-z0-9%+/=]{30,100})/g,
    keywords: ['sig='],
    entropyFloor: 3.5,
    confidence: 0.9,
    sample: { before: 'https://contoso.blob.core.windows.net/files?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-01-01T00:00:00Z&sig=', secret: [[base64, 43], '%3D'] },
  },
  keyed('azure-cognitive-key', 'Azure', '(?:azure|cognitive|openai_api_key_azure)[\\w.-]{0,25}?(?:key|secret)', '[a-f0-9]{32}(?![a-f0-9])', ['azure', 'cognitive'], { before: 'AZURE_OPENAI_API_KEY=', secret: [[hex, 32]] }),
  token('github-pat', 'GitHub', 'ghp_[A-Za-z0-9]{36}', ['ghp_'], ['ghp_', [alnum, 36]]),
  token('github-oauth-token', 'GitHub', 'gho_[A-Za-z0-9]{36}', ['gho_'], ['gho_', [alnum, 36]]),
  token('github-app-token', 'GitHub', '(?:ghu|ghs)_[A-Za-z0-9]{36}', ['ghu_', 'ghs_'], ['ghs_', [alnum, 36]]),
  token('github-refresh-token', 'GitHub', 'ghr_[A-Za-z0-9]{36,76}', ['ghr_'], ['ghr_', [alnum, 76]]),
  token('github-fine-grained-pat', 'GitHub', 'github_pat_[A-Za-z0-9_]{82}', ['github_pat_'], ['github_pat_', [alnum, 22], '_', [alnum, 59]]),
  token('gitlab-pat', 'GitLab', 'glpat-[A-Za-z0-9_-]{20}', ['glpat-'], ['glpat-', [alnum, 20]]),
  token('gitlab-pipeline-trigger-token', 'GitLab', 'glptt-[0-9a-f]{40}', ['glptt-'], ['glptt-', [hex, 40]]),
  token('gitlab-runner-token', 'GitLab', 'GR1348941[A-Za-z0-9_-]{20}', ['gr1348941'], ['GR1348941', [alnum, 20]]),
  token('gitlab-deploy-token', 'GitLab', 'gldt-[A-Za-z0-9_-]{20}', ['gldt-'], ['gldt-', [alnum, 20]]),
  token('slack-bot-token', 'Slack', 'xoxb-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{24}', ['xoxb-'], ['xoxb-', [digits, 12], '-', [digits, 13], '-', [alnum, 24]], 3),
  token('slack-user-token', 'Slack', 'xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}', ['xoxp-', 'xoxe-'], ['xoxp-', [digits, 12], '-', [digits, 12], '-', [digits, 13], '-', [lowerAlnum, 32]], 3),
  token('slack-app-token', 'Slack', 'xapp-\\d-[A-Z0-9]{9,12}-\\d{10,14}-[a-z0-9]{64}', ['xapp-'], ['xapp-1-', [upperAlnum, 11], '-', [digits, 13], '-', [hex, 64]]),
  {
    id: 'slack-webhook-url',
    provider: 'Slack',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>T[A-Z0-9]{8,12}\/B[A-Z0-9]{8,12}\/[A-Za-z0-9]{24}|[A-Za-z0-9+/]{43,56})(?![A-Za-z0-9+/])/g,
    keywords: ['hooks.slack.com'],
    entropyFloor: 3,
    confidence: 0.95,
    sample: { before: 'webhook: https://hooks.slack.com/services/', secret: ['T', [upperAlnum, 10], '/B', [upperAlnum, 10], '/', [alnum, 24]] },
  },
  token('stripe-secret-key', 'Stripe', '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{24,99}', ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], ['sk_live_', [alnum, 99]], 3.5),
  token('stripe-webhook-secret', 'Stripe', 'whsec_[A-Za-z0-9]{32,64}', ['whsec_'], ['whsec_', [alnum, 32]]),
  token('twilio-api-key', 'Twilio', 'SK[0-9a-fA-F]{32}', ['sk'], ['SK', [hex, 32]]),
  keyed('twilio-auth-token', 'Twilio', 'twilio[\\w.-]{0,20}?(?:auth|token|secret)', '[a-f0-9]{32}(?![a-f0-9])', ['twilio'], { before: 'TWILIO_AUTH_TOKEN=', secret: [[hex, 32]] }),
  token('sendgrid-api-key', 'SendGrid', 'SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}', ['sg.'], ['SG.', [base64url, 22], '.', [base64url, 43]], 4),
  keyed('mailgun-api-key', 'Mailgun', 'mailgun[\\w.-]{0,20}?(?:key|token|secret)?', 'key-[0-9a-f]{32}(?![0-9a-f])', ['mailgun'], { before: 'MAILGUN_API_KEY=', secret: ['key-', [hex, 32]] }),
  token('mailchimp-api-key', 'Mailchimp', '[0-9a-f]{32}-us\\d{1,2}', ['-us'], [[hex, 32], '-us14']),
  token('npm-token', 'npm', 'npm_[A-Za-z0-9]{36}', ['npm_'], ['npm_', [alnum, 36]]),
  token('pypi-token', 'PyPI', 'pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,300}', ['pypi-ageichlwas5vcmc'], ['pypi-AgEIcHlwaS5vcmc', [base64url, 70]]),
  token('rubygems-api-key', 'RubyGems', 'rubygems_[a-f0-9]{48}', ['rubygems_'], ['rubygems_', [hex, 48]]),
  token('docker-hub-pat', 'Docker Hub', 'dckr_pat_[A-Za-z0-9_-]{27}', ['dckr_pat_'], ['dckr_pat_', [base64url, 27]]),
  token('huggingface-token', 'Hugging Face', 'hf_[A-Za-z]{34}', ['hf_'], ['hf_', [alpha, 34]]),
  token('huggingface-org-token', 'Hugging Face', 'api_org_[A-Za-z]{34}', ['api_org_'], ['api_org_', [alpha, 34]]),
  {
    id: 'jwt',
    provider: 'JSON Web Token',
    pattern: /(?<![A-Za-z0-9_-])(?<secret>eyJ[A-Za-z0-9_-]{8,4000}\.eyJ[A-Za-z0-9_-]{8,8000}\.[A-Za-z0-9_-]{8,2000})(?![A-Za-z0-9_-])/g,
    keywords: ['eyj'],
    entropyFloor: 3,
    confidence: 0.9,
    sample: {
      before: 'Authorization token: ',
      secret: [
        Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url'),
        '.',
        Buffer.from('{"sub":"8421","role":"admin","exp":1924992000}').toString('base64url'),
        '.',
        [base64url, 43],
      ],
    },
  },
  {
    id: 'connection-string-password',
    provider: 'Database / service URL',
    pattern: /(?<![A-Za-z0-9+.-])(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|ftps?|sftp|smtps?|ldaps?|https?|jdbc:[a-z]{2,12}|oracle|snowflake|clickhouse|cockroachdb|neo4j|nats):\/\/[^\s:/@'"<>]{1,64}:(?<secret>[^\s@/'"<>]{1,128})@[^\s/'"<>]{1,255}/gi,
    keywords: ['://'],
    entropyFloor: 0,
    allowlist: [/^(?:password|passwd|pass|pwd|secret|changeme|x{3,}|\*+|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|%\([^)]*\)s|\$[A-Za-z_]+|your[_-]?password|example|dummy|placeholder|redacted|\.\.\.)$/i],
    confidence: 0.9,
    sample: { before: 'DATABASE_URL=postgres://app_user:', secret: [[alnum, 18]], after: '@db.internal.acme-corp.net:5432/orders' },
  },
  {
    id: 'http-basic-auth',
    provider: 'HTTP authorization',
    pattern: /Authorization["']?\s{0,3}:\s{0,3}["']?Basic\s{1,3}(?<secret>[A-Za-z0-9+/]{8,500}={0,2})(?![A-Za-z0-9+/=])/gi,
    keywords: ['basic'],
    entropyFloor: 2.5,
    confidence: 0.9,
    sample: { before: 'Authorization: Basic ', secret: [Buffer.from('deploy-bot:Vq8#mLr2!xTz9').toString('base64')] },
  },
  {
    id: 'http-bearer-token',
    provider: 'HTTP authorization',
    pattern: /Authorization["']?\s{0,3}:\s{0,3}["']?Bearer\s{1,3}(?<secret>[A-Za-z0-9._~+/-]{20,2000}={0,2})(?![A-Za-z0-9._~+/=-])/gi,
    keywords: ['bearer'],
    entropyFloor: 3.5,
    confidence: 0.85,
    sample: { before: 'curl -H "Authorization: Bearer ', secret: [[alnum, 40]], after: '" https://api.internal.example.net/v1/orders' },
  },
  token('shopify-token', 'Shopify', 'shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}', ['shpat_', 'shpss_', 'shpca_', 'shppa_'], ['shpat_', [hex, 32]]),
  token('digitalocean-token', 'DigitalOcean', 'do[por]_v1_[a-f0-9]{64}', ['dop_v1_', 'doo_v1_', 'dor_v1_'], ['dop_v1_', [hex, 64]]),
  token('discord-bot-token', 'Discord', '[MN][A-Za-z0-9]{23,25}\\.[A-Za-z0-9_-]{6}\\.[A-Za-z0-9_-]{27,38}', [], ['M', [alnum, 25], '.', [base64url, 6], '.', [base64url, 38]], 3.5),
  {
    id: 'discord-webhook-url',
    provider: 'Discord',
    pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/(?<secret>[A-Za-z0-9_-]{60,72})(?![A-Za-z0-9_-])/g,
    keywords: ['discord'],
    entropyFloor: 3.5,
    confidence: 0.95,
    sample: { before: 'https://discord.com/api/webhooks/112233445566778899/', secret: [[base64url, 68]] },
  },
  {
    id: 'telegram-bot-token',
    provider: 'Telegram',
    pattern: /(?<![0-9])(?<secret>\d{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/g,
    keywords: [':aa'],
    entropyFloor: 3,
    confidence: 0.9,
    sample: { before: 'TELEGRAM_BOT_TOKEN=', secret: [[digits, 10], ':AA', [base64url, 33]] },
  },
  token('square-access-token', 'Square', '(?:EAAA[A-Za-z0-9_-]{60}|sq0atp-[0-9A-Za-z_-]{22}|sq0csp-[0-9A-Za-z_-]{43})', ['eaaa', 'sq0atp-', 'sq0csp-'], ['EAAA', [base64url, 60]]),
  token('braintree-access-token', 'PayPal Braintree', 'access_token\\$production\\$[0-9a-z]{16}\\$[0-9a-f]{32}', ['access_token$production$'], ['access_token$production$', [lowerAlnum, 16], '$', [hex, 32]]),
  token('heroku-api-key', 'Heroku', 'HRKU-[A-Za-z0-9_-]{60,70}', ['hrku-'], ['HRKU-', [base64url, 60]]),
  keyed('datadog-api-key', 'Datadog', '(?:datadog|dd)[\\w.-]{0,20}?(?:api|app)?[_-]?key', '[a-f0-9]{32,40}(?![a-f0-9])', ['datadog', 'dd_api', 'dd_app'], { before: 'DD_API_KEY=', secret: [[hex, 32]] }),
  token('new-relic-api-key', 'New Relic', 'NRAK-[A-Z0-9]{27}', ['nrak-'], ['NRAK-', [upperAlnum, 27]]),
  token('sentry-token', 'Sentry', 'sntry[us]_[A-Za-z0-9+/=_-]{50,200}', ['sntrys_', 'sntryu_'], ['sntrys_', [base64url, 80]]),
  token('databricks-token', 'Databricks', 'dapi[a-f0-9]{32}(?:-\\d)?', ['dapi'], ['dapi', [hex, 32]]),
  token('doppler-token', 'Doppler', 'dp\\.pt\\.[A-Za-z0-9]{43}', ['dp.pt.'], ['dp.pt.', [alnum, 43]]),
  token('pulumi-token', 'Pulumi', 'pul-[a-f0-9]{40}', ['pul-'], ['pul-', [hex, 40]]),
  token('terraform-cloud-token', 'Terraform Cloud', '[A-Za-z0-9]{14}\\.atlasv1\\.[A-Za-z0-9_=-]{60,70}', ['atlasv1'], [[alnum, 14], '.atlasv1.', [base64url, 67]]),
  token('vault-token', 'HashiCorp Vault', 'hv[sb]\\.[A-Za-z0-9_-]{90,120}', ['hvs.', 'hvb.'], ['hvs.', [base64url, 95]]),
  token('linear-api-key', 'Linear', 'lin_api_[A-Za-z0-9]{40}', ['lin_api_'], ['lin_api_', [alnum, 40]]),
  token('notion-token', 'Notion', '(?:ntn_[0-9]{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})', ['ntn_', 'secret_'], ['ntn_', [digits, 11], [alnum, 35]]),
  token('atlassian-api-token', 'Atlassian', 'ATATT3[A-Za-z0-9_=-]{180,200}', ['atatt3'], ['ATATT3', [base64url, 186]]),
  token('figma-token', 'Figma', 'figd_[A-Za-z0-9_-]{40}', ['figd_'], ['figd_', [base64url, 40]]),
  token('postman-api-key', 'Postman', 'PMAK-[a-f0-9]{24}-[a-f0-9]{34}', ['pmak-'], ['PMAK-', [hex, 24], '-', [hex, 34]]),
  token('groq-api-key', 'Groq', 'gsk_[A-Za-z0-9]{52}', ['gsk_'], ['gsk_', [alnum, 52]]),
  token('replicate-token', 'Replicate', 'r8_[A-Za-z0-9]{37}', ['r8_'], ['r8_', [alnum, 37]]),
  token('perplexity-api-key', 'Perplexity', 'pplx-[A-Za-z0-9]{48}', ['pplx-'], ['pplx-', [alnum, 48]]),
  token('xai-api-key', 'xAI', 'xai-[A-Za-z0-9]{80}', ['xai-'], ['xai-', [alnum, 80]]),
  token('alibaba-access-key', 'Alibaba Cloud', 'LTAI[A-Za-z0-9]{20}', ['ltai'], ['LTAI', [alnum, 20]]),
  token('age-secret-key', 'age', 'AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}', ['age-secret-key-1'], ['AGE-SECRET-KEY-1', [bech32, 58]]),
  token('dynatrace-token', 'Dynatrace', 'dt0c01\\.[A-Z0-9]{24}\\.[A-Z0-9]{64}', ['dt0c01.'], ['dt0c01.', [upperAlnum, 24], '.', [upperAlnum, 64]]),
  token('grafana-token', 'Grafana', '(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,400}={0,2})', ['glsa_', 'glc_'], ['glsa_', [alnum, 32], '_', [hex, 8]]),
  token('supabase-token', 'Supabase', '(?:sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{30,60})', ['sbp_', 'sb_secret_'], ['sbp_', [hex, 40]]),
  token('airtable-pat', 'Airtable', 'pat[A-Za-z0-9]{14}\\.[a-f0-9]{64}', ['pat'], ['pat', [alnum, 14], '.', [hex, 64]]),
  keyed('mistral-api-key', 'Mistral AI', 'mistral[\\w.-]{0,20}?(?:key|token|secret)', '[A-Za-z0-9]{32}(?![A-Za-z0-9])', ['mistral'], { before: 'MISTRAL_API_KEY=', secret: [[alnum, 32]] }, 3.5),
  keyed('cohere-api-key', 'Cohere', 'co(?:here)?[\\w.-]{0,20}?(?:key|token|secret)', '[A-Za-z0-9]{40}(?![A-Za-z0-9])', ['cohere', 'co_api'], { before: 'COHERE_API_KEY=', secret: [[alnum, 40]] }, 3.5),
  keyed('okta-api-token', 'Okta', 'okta[\\w.-]{0,20}?(?:token|key)', '00[A-Za-z0-9_-]{40}(?![A-Za-z0-9_-])', ['okta'], { before: 'OKTA_API_TOKEN=', secret: ['00', [base64url, 40]] }),
  keyed('cloudflare-api-token', 'Cloudflare', 'cloudflare[\\w.-]{0,20}?(?:token|key)', '[A-Za-z0-9_-]{40}(?![A-Za-z0-9_-])', ['cloudflare'], { before: 'CLOUDFLARE_API_TOKEN=', secret: [[base64url, 40]] }, 3.5),
  token('cloudflare-origin-ca-key', 'Cloudflare', 'v1\\.0-[a-f0-9]{24}-[a-f0-9]{146}', ['v1.0-'], ['v1.0-', [hex, 24], '-', [hex, 146]]),
  token('firebase-cloud-messaging-key', 'Firebase', 'AAAA[A-Za-z0-9_-]{7}:[A-Za-z0-9_-]{140}', ['aaaa'], ['AAAA', [base64url, 7], ':', [base64url, 140]]),
  token('planetscale-token', 'PlanetScale', 'pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,64}', ['pscale_'], ['pscale_tkn_', [base64url, 43]]),
  token('fly-io-token', 'Fly.io', 'fo1_[A-Za-z0-9_-]{43}', ['fo1_'], ['fo1_', [base64url, 43]]),
  token('onepassword-service-token', '1Password', 'ops_eyJ[A-Za-z0-9+/=_-]{250,1200}', ['ops_eyj'], ['ops_eyJ', [base64url, 300]]),
];
