import { isRefusal } from './refusal.detector';

describe('isRefusal', () => {
  it.each([
    "I'm sorry, but I can't help with that.",
    'I cannot assist with this request.',
    'As an AI language model, I cannot provide medical diagnoses.',
    'We must decline this request.',
    'Es tut mir leid, aber das kann ich nicht beantworten.',
    'Désolé, je ne peux pas vous aider avec cela.',
    'Lo siento, pero no puedo ayudarte con eso.',
    'Mi dispiace, non posso aiutarti.',
    'Desculpe, mas não posso ajudar com isso.',
  ])('recognizes %s', (answer) => expect(isRefusal(answer)).toBe(true));

  it.each([
    'Paris is the capital of France.',
    'Here is the code you asked for: if (x) { return 1; }',
    `${'A long helpful answer. '.repeat(20)} Some users write "I can't help with that" to refuse.`,
    'You cannot assist a process that already exited.',
  ])('does not flag %s', (answer) => expect(isRefusal(answer)).toBe(false));
});
