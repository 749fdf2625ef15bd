import { describe, expect, it } from 'vitest';
import { MissingValueError, present } from '../../src/domain/present';

describe('present', () => {
  it('returns the value, falsy ones included', () => {
    expect(present(0, 'zero')).toBe(0);
    expect(present('', 'empty')).toBe('');
    expect(present([1, 2][1], 'the second')).toBe(2);
  });

  it.each([undefined, null])('throws a MissingValueError naming what is missing for %s', (value) => {
    expect(() => present(value, 'client c1')).toThrow(MissingValueError);
    expect(() => present(value, 'client c1')).toThrow('client c1 is missing');
  });
});
