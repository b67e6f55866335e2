import { makeStep } from '../summary/step-record.fixture';
import { averageUserRating, parseUserRating } from './user-rating.parser';

describe('parseUserRating', () => {
  it.each([
    [{ user_rating: 5 }, 1],
    [{ user_rating: 3 }, 0.5],
    [{ user_rating: 1 }, 0], // exactly 1 reads as one star
    [{ user_rating: '4' }, 0.75],
    [{ user_rating: 0.9 }, 0.9],
    [{ user_rating: 0 }, 0],
    [{ user_rating: true }, 1],
    [{ user_rating: false }, 0],
    [{ user_rating: 1, user_rating_scale: 1 }, 1],
    [{ user_rating: 1, user_rating_scale: 5 }, 0],
    ['{"user_rating": 5}', 1],
  ])('normalizes %j to %d', (output, expected) => {
    expect(parseUserRating(output)).toBeCloseTo(expected);
  });

  it.each([[{ note: 'x' }], [{ user_rating: 7 }], [{ user_rating: -1 }], [{ user_rating: 'great' }], [{ user_rating: null }], ['not json'], [null], [[1]], [{ user_rating: 3, user_rating_scale: 1 }]])(
    'ignores %j',
    (output) => {
      expect(parseUserRating(output)).toBeNull();
    },
  );
});

describe('averageUserRating', () => {
  it('averages the ratings of log steps only', () => {
    const steps = [
      makeStep({ id: 1, type: 'log', output: { user_rating: 5 } }),
      makeStep({ id: 2, type: 'log', output: { user_rating: 0.5 } }),
      makeStep({ id: 3, type: 'run', output: { user_rating: 1 } }),
      makeStep({ id: 4, type: 'log', output: { event: 'clicked' } }),
    ];
    expect(averageUserRating(steps)).toEqual({ average: 0.75, count: 2 });
    expect(averageUserRating([makeStep({ id: 1 })])).toBeNull();
  });
});
