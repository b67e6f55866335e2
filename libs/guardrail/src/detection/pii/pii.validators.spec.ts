import { cardIssuer, ibanValid, luhnValid, usSsnValid } from './pii.validators';

describe('PII validators', () => {
  it('checks Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
  });

  it('recognizes issuer ranges and lengths', () => {
    expect(cardIssuer('4111111111111111')).toBe('visa');
    expect(cardIssuer('5555555555554444')).toBe('mastercard');
    expect(cardIssuer('2221000000000009')).toBe('mastercard');
    expect(cardIssuer('378282246310005')).toBe('amex');
    expect(cardIssuer('6011111111111117')).toBe('discover');
    expect(cardIssuer('9111111111111111')).toBeNull();
    expect(cardIssuer('37828224631000')).toBeNull(); // Amex needs 15 digits
  });

  it('validates IBAN length per country and mod-97', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('GB82WEST12345698765432')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(ibanValid('DE8937040044053201300')).toBe(false);
  });

  it('rejects SSN ranges the SSA never issues and published examples', () => {
    expect(usSsnValid('512', '44', '9810')).toBe(true);
    expect(usSsnValid('000', '12', '3456')).toBe(false);
    expect(usSsnValid('666', '12', '3456')).toBe(false);
    expect(usSsnValid('912', '12', '3456')).toBe(false);
    expect(usSsnValid('512', '00', '3456')).toBe(false);
    expect(usSsnValid('512', '44', '0000')).toBe(false);
    expect(usSsnValid('078', '05', '1120')).toBe(false);
  });
});
