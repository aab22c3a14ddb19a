import { describe, expect, it } from 'vitest';
import { setNewest } from './bounded-map.js';

describe('setNewest', () => {
  it('keeps the newest entries, a key set again counting as new', () => {
    const map = new Map<string, number>();
    for (const [key, value] of [['a', 1], ['b', 2], ['c', 3], ['a', 4], ['d', 5]] as const) setNewest(map, key, value, 3);
    expect([...map]).toEqual([['c', 3], ['a', 4], ['d', 5]]);
  });
});
