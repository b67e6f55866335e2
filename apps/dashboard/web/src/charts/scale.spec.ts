import { bandScale, linearScale, linePath, niceStep, niceTicks } from './scale';

describe('niceStep and niceTicks', () => {
  it('picks 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceStep(0, 100, 5)).toBe(20);
    expect(niceStep(0, 1, 4)).toBe(0.25);
    expect(niceStep(0, 730, 5)).toBe(200);
    expect(niceStep(0, 0.003, 5)).toBeCloseTo(0.001, 10);
    expect(niceStep(5, 5, 5)).toBe(1);
  });

  it('covers the data with round ticks from zero', () => {
    expect(niceTicks(0, 730)).toEqual([0, 200, 400, 600, 800]);
    expect(niceTicks(0, 0.3, 3)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceTicks(0, 0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
});

describe('linearScale', () => {
  it('maps the nice domain onto the pixel range (inverted for y)', () => {
    const y = linearScale([120, 730, 400], [200, 0]);
    expect(y.domain).toEqual([0, 800]);
    expect(y(0)).toBe(200);
    expect(y(800)).toBe(0);
    expect(y(400)).toBe(100);
  });

  it('handles empty and flat data', () => {
    const empty = linearScale([], [0, 100]);
    expect(empty.domain).toEqual([0, 1]);
    expect(empty(0.5)).toBe(50);
    const flat = linearScale([0, 0, 0], [100, 0]);
    expect(flat(0)).toBe(100);
    expect(linearScale([Number.NaN, 4], [0, 10]).domain).toEqual([0, 4]);
  });

  it('can start at the data minimum instead of zero', () => {
    expect(linearScale([40, 60], [0, 100], { zero: false }).domain).toEqual([40, 60]);
  });
});

describe('bandScale', () => {
  it('splits the range into padded bands', () => {
    const band = bandScale(4, [0, 400], 0.5);
    expect(band(0)).toEqual({ start: 25, width: 50, center: 50 });
    expect(band(3)).toEqual({ start: 325, width: 50, center: 350 });
  });
});

describe('linePath', () => {
  it('draws through points and breaks at gaps', () => {
    expect(linePath([{ x: 0, y: 10 }, { x: 5.56, y: 2 }, null, { x: 20, y: 1 }, { x: 30, y: 0 }])).toBe('M0,10L5.6,2M20,1L30,0');
    expect(linePath([])).toBe('');
  });
});
