/**
 * Whether a model answer is a refusal (analytics tracks the refusal rate per model for bias
 * drift). Phrase families in the languages the guardrail covers, matched on the opening of the
 * answer, where refusals are stated; a refusal quoted later in a long answer is not one.
 */
const REFUSAL_OPENINGS: RegExp[] = [
  /\b(?:i|we)\s*(?:am|'m)?\s*(?:sorry|afraid)?,?\s*(?:but\s+)?(?:i|we)?\s*(?:can(?:no|')t|cannot|won't|will not|am not able to|am unable to|'m not able to|'m unable to)\s+(?:help|assist|comply|provide|do|fulfil|fulfill|answer|share|continue)/i,
  /\bas an ai(?: language model)?,? i (?:can(?:no|')t|cannot|am not able|won't)/i,
  /\b(?:i|we) (?:must|have to) (?:decline|refuse)\b/i,
  /\bthis (?:request )?(?:violates|goes against) (?:my|our|the) (?:guidelines|policies|policy)\b/i,
  /\b(?:tut mir leid|es tut mir leid)\b.{0,40}\b(?:kann|darf) (?:ich )?(?:nicht|keine)\b/i,
  /\b(?:désolé|je suis désolé).{0,40}\bne (?:peux|puis) pas\b/i,
  /\b(?:lo siento)\b.{0,40}\bno puedo\b/i,
  /\b(?:mi dispiace)\b.{0,40}\bnon posso\b/i,
  /\b(?:desculpe|sinto muito)\b.{0,40}\bnão posso\b/i,
];

const OPENING_CHARS = 240;

export function isRefusal(answer: string): boolean {
  const opening = answer.slice(0, OPENING_CHARS);
  return REFUSAL_OPENINGS.some((pattern) => pattern.test(opening));
}
