import { estimatePromptTokens, extractFeatures } from './request-features.extractor';

describe('extractFeatures', () => {
  it('measures a short plain prompt', () => {
    const features = extractFeatures({ input: 'What is the capital of France?', sensitive: false });
    expect(features).toEqual({
      chars: 30,
      estimatedPromptTokens: 8,
      reasoningCues: [],
      multiStepCues: [],
      hasCode: false,
      documentAttachments: 0,
      sensitive: false,
      vpcOnlyTools: false,
      score: 0,
    });
  });

  it('finds reasoning and multi-step cues across languages, on word boundaries', () => {
    expect(extractFeatures({ input: 'Analyze the logs, then compare both runs.', sensitive: false }).reasoningCues).toEqual(['analyze', 'compare']);
    expect(extractFeatures({ input: 'Erkläre warum, Schritt für Schritt.', sensitive: false }).reasoningCues).toEqual(['erkläre warum', 'schritt für schritt']);
    expect(extractFeatures({ input: '请分析这个问题，然后给出结论', sensitive: false })).toMatchObject({ reasoningCues: ['分析'], multiStepCues: ['然后'] });
    expect(extractFeatures({ input: 'D\'abord lis le texte, ensuite résume-le.', sensitive: false }).multiStepCues).toEqual(["d'abord", 'ensuite']);
    // "comparable" is not the cue "compare"
    expect(extractFeatures({ input: 'Is this comparable?', sensitive: false }).reasoningCues).toEqual([]);
  });

  it('reports a numbered list as a multi-step cue', () => {
    const features = extractFeatures({ input: 'Do this:\n1. fetch the data\n2. clean it\n3. plot it', sensitive: false });
    expect(features.multiStepCues).toEqual(['numbered steps']);
  });

  it('detects code', () => {
    expect(extractFeatures({ input: 'Fix this:\n```\nx = 1\n```', sensitive: false }).hasCode).toBe(true);
    expect(extractFeatures({ input: 'const total = items.reduce((a, b) => a + b)', sensitive: false }).hasCode).toBe(true);
    expect(extractFeatures({ input: 'def handler(event):\n  return 1', sensitive: false }).hasCode).toBe(true);
    expect(extractFeatures({ input: 'SELECT id FROM users WHERE age > 3', sensitive: false }).hasCode).toBe(true);
    expect(extractFeatures({ input: 'Please select a function from the menu.', sensitive: false }).hasCode).toBe(false);
  });

  it('carries attachments, sensitivity and vpc_only MCP tools', () => {
    const features = extractFeatures({
      input: 'hi',
      sensitive: true,
      attachments: 2,
      tools: [{ type: 'function' }, { type: 'mcp', server_label: 'crm', vpc_only: true }],
    });
    expect(features).toMatchObject({ documentAttachments: 2, sensitive: true, vpcOnlyTools: true });
    expect(extractFeatures({ input: 'hi', sensitive: false, tools: [{ type: 'mcp', vpc_only: false }] }).vpcOnlyTools).toBe(false);
    // vpc_only only means something on MCP tools
    expect(extractFeatures({ input: 'hi', sensitive: false, tools: [{ type: 'function', vpc_only: true }] }).vpcOnlyTools).toBe(false);
  });

  it('scores by the documented weights', () => {
    expect(extractFeatures({ input: 'Explain why the sky is blue', sensitive: false }).score).toBe(1.5);
    expect(extractFeatures({ input: 'Analyze, compare, evaluate and assess this', sensitive: false }).score).toBe(3); // capped at 3
    expect(extractFeatures({ input: 'x'.repeat(1_600), sensitive: false }).score).toBe(1.5); // 400 tokens: medium
    expect(extractFeatures({ input: 'x'.repeat(6_000), sensitive: false }).score).toBe(3); // 1,500 tokens: long
    expect(extractFeatures({ input: 'summarize', attachments: 1, sensitive: false }).score).toBe(3);
  });
});

describe('estimatePromptTokens', () => {
  it('is ceil(chars / 4) for Latin text and 0 for empty input', () => {
    expect(estimatePromptTokens('')).toBe(0);
    expect(estimatePromptTokens('abcde')).toBe(2);
  });

  it('counts one token per CJK or Hangul character', () => {
    expect(estimatePromptTokens('你好世界')).toBe(4);
    expect(estimatePromptTokens('안녕 hi')).toBe(2 + 1);
  });

  it('adds the tool definitions as JSON', () => {
    const tools = [{ type: 'function', function: { name: 'lookup' } }];
    expect(estimatePromptTokens('abcd', tools)).toBe(1 + Math.ceil(JSON.stringify(tools).length / 4));
  });
});
