import { parseModelFields } from './model-fields';

describe('parseModelFields', () => {
  it('accepts a full definition and normalizes it', () => {
    const { fields, errors } = parseModelFields(
      {
        name: ' GPT mini ', identifier: 'gpt-4o-mini', provider: 'openai', base_url: 'http://10.0.0.5:8000/v1', api_key: 'sk-x', is_public: false,
        input_cost_per_1k: 0.15, output_cost_per_1k: 0, data_retention_days: 7, region_restriction: 'eu', currency: 'eur',
        additional_config: { fallback_identifier: 'm2', infrastructure: 'on-prem' }, has_api_key: true,
      },
      'create',
    );
    expect(errors).toEqual([]);
    expect(fields).toMatchObject({ name: 'GPT mini', currency: 'EUR', api_key: 'sk-x', is_public: false });
  });

  it('requires name, identifier and provider on create only', () => {
    expect(parseModelFields({}, 'create').errors).toEqual(["Name can't be blank", "Identifier can't be blank", 'Provider must be one of openai, anthropic, gemini, bedrock, azure, internal']);
    expect(parseModelFields({}, 'update').errors).toEqual([]);
  });

  it('names every bad field', () => {
    const { errors } = parseModelFields(
      { name: '', provider: 'mistral', input_cost_per_1k: -1, output_cost_per_1k: '1', data_retention_days: 1.5, currency: 'EURO', additional_config: [], base_url: 'ftp://x', is_public: 'yes', extra: 1 },
      'update',
    );
    expect(errors).toEqual([
      'Unknown field: extra',
      "Name can't be blank",
      'Provider must be one of openai, anthropic, gemini, bedrock, azure, internal',
      'Base url must be an http(s) URL',
      'Is public must be true or false',
      'Input cost per 1k must be greater than or equal to 0',
      'Output cost per 1k must be a number',
      'Data retention days must be a whole number from 1 to 3650',
      'Currency must be a 3-letter code',
      'Additional config must be an object',
    ]);
  });

  it('refuses link-local and metadata endpoints, allows private ones', () => {
    expect(parseModelFields({ base_url: 'http://169.254.169.254/latest' }, 'update').errors).toEqual(['Base url must not point at a link-local or cloud metadata address']);
    expect(parseModelFields({ base_url: 'http://metadata.google.internal/' }, 'update').errors).toHaveLength(1);
    expect(parseModelFields({ base_url: 'http://[fe80::1]/' }, 'update').errors).toHaveLength(1);
    expect(parseModelFields({ base_url: 'http://127.0.0.1:9000/v1' }, 'update').errors).toEqual([]);
  });

  it('treats an empty or null api_key as clearing it', () => {
    expect(parseModelFields({ api_key: '' }, 'update').fields.api_key).toBeNull();
    expect(parseModelFields({ api_key: null }, 'update').fields.api_key).toBeNull();
  });
});
