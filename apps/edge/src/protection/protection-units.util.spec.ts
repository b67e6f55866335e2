import { microUsdToUsd, optionalUsdToMicroUsd, usdToMicroUsd } from './micro-usd.util';
import { createReservationRef, parseReservationId } from './reservation-id.util';
import { utcMonthOf } from './utc-month.util';

describe('micro-dollar conversion', () => {
  it('rounds to whole micro-dollars without float drift', () => {
    expect(usdToMicroUsd(0.1, 'x')).toBe(100_000);
    expect(usdToMicroUsd(0.1 + 0.2, 'x')).toBe(300_000);
    expect(usdToMicroUsd(0.0000004, 'x')).toBe(0);
    expect(usdToMicroUsd(1_000_000_000, 'x')).toBe(1e15);
    expect(microUsdToUsd(300_000)).toBe(0.3);
    expect(optionalUsdToMicroUsd(null, 'x')).toBeNull();
  });

  it.each([-0.01, Number.NaN, Number.POSITIVE_INFINITY, 1e10])('rejects %p', (usd) => {
    expect(() => usdToMicroUsd(usd, 'estimatedUsd')).toThrow(/estimatedUsd/);
  });
});

describe('utcMonthOf', () => {
  it('uses the UTC calendar month, not local time', () => {
    expect(utcMonthOf(Date.UTC(2025, 0, 31, 23, 59, 59, 999))).toBe('2025-01');
    expect(utcMonthOf(Date.UTC(2025, 1, 1))).toBe('2025-02');
    expect(utcMonthOf(Date.UTC(2025, 11, 31, 23))).toBe('2025-12');
  });
});

describe('reservation ids', () => {
  it('round-trip key, project and month, whatever characters the key id holds', () => {
    const ref = createReservationRef('ak_ab:cd.ef/é', 42, '2025-03');
    expect(parseReservationId(ref.reservationId)).toEqual(ref);
  });

  it('are unique', () => {
    expect(createReservationRef('ak_1', 1, '2025-03').reservationId).not.toBe(createReservationRef('ak_1', 1, '2025-03').reservationId);
  });

  it.each(['', 'r1.1.2025-03', 'r2.1.2025-03.YWs.00000000-0000-0000-0000-000000000000', 'r1.x.2025-03.YWs.00000000-0000-0000-0000-000000000000'])(
    'reject malformed id %p',
    (id) => {
      expect(() => parseReservationId(id)).toThrow(TypeError);
    },
  );
});
