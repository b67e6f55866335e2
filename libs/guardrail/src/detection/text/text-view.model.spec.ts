import { identityView, TextViewBuilder, toOriginalSpan, viewIndexAtOriginal } from './text-view.model';

describe('text views', () => {
  it('maps identity views to the same offsets', () => {
    expect(toOriginalSpan(identityView('hello'), 1, 4)).toEqual({ start: 1, end: 4 });
  });

  it('composes spans pushed from a parent view', () => {
    const builder = new TextViewBuilder(4);
    builder.push('é', 0, 2); // "e" + U+0301 in the original
    builder.pushFromView(identityView('xxabc'), 2, 5);
    const view = builder.build();
    expect(view.text).toBe('éabc');
    expect(toOriginalSpan(view, 0, 1)).toEqual({ start: 0, end: 2 });
    expect(toOriginalSpan(view, 1, 4)).toEqual({ start: 2, end: 5 });
    expect(viewIndexAtOriginal(view, 3)).toBe(2);
  });

  it('grows past its capacity hint', () => {
    const builder = new TextViewBuilder(1);
    for (let i = 0; i < 100; i++) builder.pushCode(0x61, i, i + 1);
    expect(builder.build().text).toBe('a'.repeat(100));
  });
});
