/**
 * The bar chart's geometry (src/chart/barLayout.ts) on hand-made bars: slots and gaps between
 * groups, how tick labels fit, the value axis, which group labels have room, and the mark above a
 * bar.
 */
import { describe, expect, it } from 'vitest';
import { barLayout, barMark, barTop, busyInside, groupLabels, MIN_WIDTH, valueAxis, WIDTH } from '../../src/chart/barLayout';
import type { Bar } from '../../src/vocabulary';

function bar(key: string, fields: Partial<Bar> = {}): Bar {
  return { key, label: key, group: '', value: 100, status: 'ok', color: '#0072B2', winner: false, ariaLabel: key, tooltip: [key], ...fields };
}

describe('barLayout', () => {
  it('leaves an empty slot between groups, and room for the group labels under the plot', () => {
    const bars = [bar('a', { group: '7.2' }), bar('b', { group: '7.2' }), bar('c', { group: '7.4' })];
    const grouped = barLayout(bars, WIDTH);
    expect(grouped.x.domain()).toEqual(['a', 'b', 'gap:2', 'c']);
    expect(grouped.grouped).toBe(true);
    const plain = barLayout(bars.map((b) => ({ ...b, group: '' })), WIDTH);
    expect(plain.x.domain()).toEqual(['a', 'b', 'c']);
    expect(grouped.innerH).toBeLessThan(plain.innerH);
    expect(grouped.base).toBeLessThan(plain.base);
  });

  it('keeps short labels level, slants long ones, and stands them up (drawing taller) when even slanted they reach over two neighbours', () => {
    const labels = (label: string, n: number) => Array.from({ length: n }, (_, i) => bar(`k${i}`, { label }));
    const level = barLayout(labels('7.4', 6), WIDTH);
    expect([level.rotate, level.vertical]).toEqual([false, false]);
    const slanted = barLayout(labels('gcc -O2 -flto', 6), WIDTH);
    expect([slanted.rotate, slanted.vertical]).toEqual([true, false]);
    expect(slanted.height).toBe(level.height);
    const upright = barLayout(labels('clang -Ofast -flto', 12), MIN_WIDTH);
    expect([upright.rotate, upright.vertical]).toEqual([true, true]);
    expect(upright.height).toBeGreaterThan(level.height);
  });

  it('leaves grouped bars too narrow for a label without tick labels, and ungrouped ones with theirs', () => {
    const many = Array.from({ length: 60 }, (_, i) => bar(`v${i}`, { group: `${Math.floor(i / 5)}` }));
    expect(barLayout(many, MIN_WIDTH).unlabelled).toBe(true);
    expect(barLayout(many.map((b) => ({ ...b, group: '' })), MIN_WIDTH).unlabelled).toBe(false);
    expect(barLayout(many.slice(0, 6), WIDTH).unlabelled).toBe(false);
  });
});

describe('valueAxis', () => {
  const layout = barLayout([bar('a'), bar('b')], WIDTH);

  it('fits the figures in the view, and reaches a cost\'s worst repeat above its bar', () => {
    expect(valueAxis([bar('a', { value: 100 }), bar('b', { value: 200 })], 'max', layout).domain).toEqual([100, 200]);
    // A throughput's worst repeat lies below its best: the axis does not reach for it.
    expect(valueAxis([bar('a', { value: 100, low: 50 }), bar('b', { value: 200 })], 'max', layout).domain).toEqual([100, 200]);
    expect(valueAxis([bar('a', { value: 100, low: 250 }), bar('b', { value: 200 })], 'max', layout).domain).toEqual([100, 250]);
  });

  it('has no domain without a figure, and maps the domain onto the plot, top to bottom', () => {
    expect(valueAxis([bar('a', { value: null, status: 'not_collected' })], 'real', layout).domain).toBeNull();
    const { y } = valueAxis([bar('a', { value: 100 }), bar('b', { value: 200 })], 'max', layout);
    expect(y(100)).toBe(layout.base);
    expect(y(200)).toBeLessThan(y(150));
  });

  it('keeps a bar at the bottom of the domain visible, and says when "⚠ busy" fits inside a bar', () => {
    const bars = [bar('a', { value: 100, busy: true }), bar('b', { value: 200, busy: true })];
    const { y } = valueAxis(bars, 'max', layout);
    expect(barTop(100, y, layout)).toBeLessThan(layout.base);
    expect(busyInside(bars[0]!, y, layout)).toBe(false);
    expect(busyInside(bars[1]!, y, layout)).toBe(true);
    expect(busyInside({ ...bars[1]!, busy: false }, y, layout)).toBe(false);
  });
});

describe('groupLabels', () => {
  it('centres each group\'s label under its bars, leaving out one that would overlap the one before', () => {
    const bars = [bar('a', { group: '7.2' }), bar('b', { group: '7.2' }), bar('c', { group: '7.4' })];
    const layout = barLayout(bars, WIDTH);
    const labels = groupLabels(bars, layout);
    expect(labels.map((l) => l.name)).toEqual(['7.2', '7.4']);
    const centre = (key: string) => (layout.x(key) ?? 0) + layout.bandwidth / 2;
    expect(labels[0]?.center).toBeCloseTo((centre('a') + centre('b')) / 2, 9);
    expect(labels[1]?.center).toBeCloseTo(centre('c'), 9);
    const crowded = Array.from({ length: 40 }, (_, i) => bar(`v${i}`, { group: `line ${Math.floor(i / 2)}` }));
    const shown = groupLabels(crowded, barLayout(crowded, MIN_WIDTH)).map((l) => l.name);
    expect(shown.length).toBeGreaterThan(1);
    expect(shown.length).toBeLessThan(20);
    expect(shown[0]).toBe('line 0');
  });

  it('gives no labels to bars without groups', () => {
    const bars = [bar('a'), bar('b')];
    expect(groupLabels(bars, barLayout(bars, WIDTH))).toEqual([]);
  });
});

describe('barMark', () => {
  it('stars the winner, and marks a tie ≈ and an unjudged winner ? instead', () => {
    expect(barMark(bar('a', { winner: true }), false)).toEqual({ text: '★', tone: 'fill-slate-900' });
    expect(barMark(bar('a', { winner: true, noise: 'tie' }), false).text).toBe('≈');
    expect(barMark(bar('a', { winner: true, noise: 'unknown' }), false).text).toBe('?');
    expect(barMark(bar('a'), false).text).toBe('');
  });

  it('shows a change\'s arrow in blue when better and orange when worse, by the sign of the number', () => {
    expect(barMark(bar('a', { change: 'faster' }), false)).toEqual({ text: '▲', tone: 'fill-[#0072B2]' });
    expect(barMark(bar('a', { change: 'slower' }), false)).toEqual({ text: '▼', tone: 'fill-[#D55E00]' });
    // A cheaper cost goes down and is better.
    expect(barMark(bar('a', { change: 'faster', changeMark: '▼' }), false)).toEqual({ text: '▼', tone: 'fill-[#0072B2]' });
    // The winner's star outranks the arrow, and takes no colour.
    expect(barMark(bar('a', { change: 'faster', winner: true }), false)).toEqual({ text: '★', tone: 'fill-slate-900' });
  });

  it('adds ⚠ for a busy bar too short to say so inside', () => {
    expect(barMark(bar('a', { winner: true, busy: true }), false).text).toBe('★⚠');
    expect(barMark(bar('a', { winner: true, busy: true }), true).text).toBe('★');
  });
});
