import { isIP } from 'node:net';
import { isPlainObject } from '../projects/project-settings';

export const PROVIDERS = ['openai', 'anthropic', 'gemini', 'bedrock', 'azure', 'internal'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Validated model definition fields, as sent (absent = not sent; null only where allowed). */
export interface ModelFields {
  name?: string;
  identifier?: string;
  provider?: Provider;
  base_url?: string;
  /** null or "" clears the stored key. */
  api_key?: string | null;
  is_public?: boolean;
  input_cost_per_1k?: number;
  output_cost_per_1k?: number;
  data_retention_days?: number;
  region_restriction?: string;
  currency?: string;
  additional_config?: Record<string, unknown>;
}

const KNOWN = new Set([
  'name', 'identifier', 'provider', 'base_url', 'api_key', 'is_public', 'input_cost_per_1k', 'output_cost_per_1k',
  'data_retention_days', 'region_restriction', 'currency', 'additional_config',
]);
// Read-only response fields a client may echo back; ignored on write.
const READ_ONLY = new Set(['id', 'project_id', 'has_api_key', 'fallback_identifier', 'created_at', 'updated_at']);
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$/;

/**
 * Hosts a model's base_url may not point at: link-local addresses (169.254/16, fe80::/10, which
 * hold cloud metadata services) and metadata host names. Private and loopback addresses are
 * allowed: self-hosted models are the point of `internal`.
 */
function refusedHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (['metadata.google.internal', 'metadata', 'metadata.azure.internal'].includes(host)) return true;
  if (isIP(host) === 4) return host.startsWith('169.254.');
  if (isIP(host) === 6) return /^fe[89ab][0-9a-f]:/.test(host) || host.startsWith('::ffff:169.254.') || host === 'fd00:ec2::254';
  return false;
}

function number(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * Validates model definition fields. On create, name, identifier and provider are required; on
 * update every field is optional and only the ones sent change. Answers the fields or the list
 * of messages.
 */
export function parseModelFields(input: Record<string, unknown>, mode: 'create' | 'update'): { fields: ModelFields; errors: string[] } {
  const errors: string[] = [];
  const fields: ModelFields = {};
  for (const key of Object.keys(input)) if (!KNOWN.has(key) && !READ_ONLY.has(key)) errors.push(`Unknown field: ${key.slice(0, 60)}`);

  const text = (key: 'name' | 'region_restriction', label: string, max: number) => {
    const value = input[key];
    if (value === undefined) return;
    if (typeof value !== 'string' || value.trim() === '') errors.push(`${label} can't be blank`);
    else if (value.trim().length > max) errors.push(`${label} is too long (maximum is ${max} characters)`);
    else fields[key] = value.trim();
  };
  text('name', 'Name', 200);
  text('region_restriction', 'Region restriction', 64);

  if (input.identifier !== undefined) {
    const value = input.identifier;
    if (typeof value !== 'string' || value.trim() === '') errors.push("Identifier can't be blank");
    else if (!IDENTIFIER.test(value.trim())) errors.push('Identifier may contain letters, digits and . _ : / @ + - (at most 200 characters)');
    else fields.identifier = value.trim();
  }
  if (input.provider !== undefined) {
    if (typeof input.provider !== 'string' || !(PROVIDERS as readonly string[]).includes(input.provider)) errors.push(`Provider must be one of ${PROVIDERS.join(', ')}`);
    else fields.provider = input.provider as Provider;
  }
  if (input.base_url !== undefined && input.base_url !== null) {
    const value = input.base_url;
    if (typeof value !== 'string') errors.push('Base url must be an http(s) URL');
    else if (value !== '') {
      let url: URL | undefined;
      try {
        url = new URL(value);
      } catch {
        url = undefined;
      }
      if (!url || !['http:', 'https:'].includes(url.protocol) || value.length > 2_000) errors.push('Base url must be an http(s) URL');
      else if (url.username || url.password) errors.push('Base url must not contain credentials (use api_key)');
      else if (refusedHost(url.hostname)) errors.push('Base url must not point at a link-local or cloud metadata address');
      else fields.base_url = value;
    } else fields.base_url = '';
  } else if (input.base_url === null) fields.base_url = '';
  if (input.api_key !== undefined) {
    const value = input.api_key;
    if (value !== null && typeof value !== 'string') errors.push('Api key must be a string or null');
    else if (typeof value === 'string' && value.length > 4_096) errors.push('Api key is too long (maximum is 4096 characters)');
    else fields.api_key = value === '' ? null : value;
  }
  if (input.is_public !== undefined) {
    if (typeof input.is_public !== 'boolean') errors.push('Is public must be true or false');
    else fields.is_public = input.is_public;
  }
  for (const [key, label] of [['input_cost_per_1k', 'Input cost per 1k'], ['output_cost_per_1k', 'Output cost per 1k']] as const) {
    const value = input[key];
    if (value === undefined) continue;
    if (!number(value)) errors.push(`${label} must be a number`);
    else if (value < 0) errors.push(`${label} must be greater than or equal to 0`);
    else fields[key] = value;
  }
  if (input.data_retention_days !== undefined) {
    const value = input.data_retention_days;
    if (!number(value) || !Number.isInteger(value) || value < 1 || value > 3_650) errors.push('Data retention days must be a whole number from 1 to 3650');
    else fields.data_retention_days = value;
  }
  if (input.currency !== undefined) {
    if (typeof input.currency !== 'string' || !/^[A-Za-z]{3}$/.test(input.currency)) errors.push('Currency must be a 3-letter code');
    else fields.currency = input.currency.toUpperCase();
  }
  if (input.additional_config !== undefined) {
    const value = input.additional_config;
    if (!isPlainObject(value)) errors.push('Additional config must be an object');
    else {
      const fallback = value.fallback_identifier;
      if (fallback !== undefined && fallback !== null && (typeof fallback !== 'string' || !IDENTIFIER.test(fallback))) errors.push('Additional config fallback_identifier must be a model identifier');
      if (value.infrastructure !== undefined && typeof value.infrastructure !== 'string') errors.push('Additional config infrastructure must be a string');
      if (Buffer.byteLength(JSON.stringify(value)) > 16_384) errors.push('Additional config is too large (maximum is 16384 bytes)');
      fields.additional_config = value;
    }
  }
  if (mode === 'create') {
    if (input.name === undefined) errors.push("Name can't be blank");
    if (input.identifier === undefined) errors.push("Identifier can't be blank");
    if (input.provider === undefined) errors.push(`Provider must be one of ${PROVIDERS.join(', ')}`);
  }
  return { fields, errors };
}
