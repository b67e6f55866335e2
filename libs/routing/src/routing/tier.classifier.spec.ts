import { extractFeatures } from './request-features.extractor';
import { classify } from './tier.classifier';

function tierOf(input: string, extra: { sensitive?: boolean; attachments?: number; tools?: Array<{ type: string; vpc_only?: boolean }> } = {}) {
  return classify(extractFeatures({ input, sensitive: extra.sensitive ?? false, attachments: extra.attachments, tools: extra.tools }));
}

describe('classify', () => {
  it('routes a short low-stakes prompt to simple', () => {
    const result = tierOf('Translate "good morning" to Spanish');
    expect(result.tier).toBe('simple');
    expect(result.explanation).toEqual(['complexity score 0 < 3: tier simple']);
  });

  it('keeps a single reasoning cue simple', () => {
    expect(tierOf('Explain why the sky is blue').tier).toBe('simple');
  });

  it.each([
    ['long input', 'lorem ipsum '.repeat(600), {}],
    ['reasoning cues', 'Analyze the outage and explain why it happened', {}],
    ['reasoning plus multi-step cues', 'Compare the two plans and then write a summary', {}],
    ['code', 'What does this do?\n```js\nconsole.info(1)\n```', {}],
    ['a document attachment', 'Summarize this', { attachments: 1 }],
    ['a numbered plan plus a cue', 'Evaluate:\n1. cost\n2. risk', {}],
  ])('routes %s to complex', (_label, input, extra) => {
    const result = tierOf(input, extra);
    expect(result.tier).toBe('complex');
    expect(result.explanation.at(-1)).toMatch(/>= 3: tier complex$/);
  });

  it('routes sensitive input to secure, whatever its complexity', () => {
    const result = tierOf('Analyze and compare the contract of john@example.com', { sensitive: true });
    expect(result.tier).toBe('secure');
    expect(result.explanation).toContain('sensitive content flagged by the guardrail (PII or secret)');
  });

  it('routes a vpc_only MCP tool to secure', () => {
    const result = tierOf('hello', { tools: [{ type: 'mcp', vpc_only: true }] });
    expect(result.tier).toBe('secure');
    expect(result.explanation).toContain('vpc_only MCP tool offered: private models only');
  });

  it('explains every score contribution', () => {
    const { explanation } = tierOf('Analyze this step by step', { attachments: 1 });
    expect(explanation).toEqual([
      'reasoning cues: analyze, step by step: +3',
      '1 document attachment(s): +3',
      'complexity score 6 >= 3: tier complex',
    ]);
  });
});
