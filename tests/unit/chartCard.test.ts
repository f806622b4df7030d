import { describe, expect, it } from 'vitest';
import { changeList } from '../../src/ui/chartCard';

describe('changeList', () => {
  it('names the releases that changed while there are few', () => {
    expect(changeList(['▲ 7.0.15', '▼ 7.4.1'])).toBe('▲ 7.0.15, ▼ 7.4.1');
    const twelve = Array.from({ length: 12 }, (_, i) => `▲ 2.6.${i}`);
    expect(changeList(twelve)).toBe(twelve.join(', '));
  });

  it('counts them each way at every release, where a list would bury the chart', () => {
    const many = [...Array.from({ length: 70 }, (_, i) => `▲ 2.6.${i}`), ...Array.from({ length: 50 }, (_, i) => `▼ 2.8.${i}`)];
    expect(changeList(many)).toBe('120 releases: 70 ▲, 50 ▼, marked above their bars');
  });
});
