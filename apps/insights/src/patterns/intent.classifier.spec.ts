import { classifyIntent } from './intent.classifier';

describe('classifyIntent', () => {
  it.each([
    ['Translate this paragraph into French: bonjour', 'translation'],
    ['Please summarize the following meeting notes: ...', 'summarization'],
    ['TL;DR of this article please', 'summarization'],
    ['Why does this Python function throw a KeyError?', 'code'],
    ['Extract the invoice number and total as JSON', 'extraction'],
    ['Classify the sentiment of this review', 'classification'],
    ['Write a short email to the team about Friday', 'writing'],
    ['What is the capital of France?', 'question_answering'],
    ['hello there', 'general'],
  ])('%s → %s', (input, intent) => {
    expect(classifyIntent(input)).toBe(intent);
  });

  it('prefers a valid caller label and ignores an invalid one', () => {
    expect(classifyIntent('What is 2+2?', { intent: 'Billing-FAQ' })).toBe('billing-faq');
    expect(classifyIntent('What is 2+2?', { intent: 'no spaces allowed' })).toBe('question_answering');
    expect(classifyIntent('What is 2+2?', { intent: 42 })).toBe('question_answering');
  });
});
