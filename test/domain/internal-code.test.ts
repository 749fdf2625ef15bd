/**
 * Internal codes unique by construction (src/domain/internal-code.ts): a client's counter values
 * give distinct 7-character codes, each opening with a lowercase letter, so none can be a code drawn
 * at random before (`A–Z0–9`); the permutation is a bijection (its inverse gives the counter back),
 * and two clients' keys give unrelated codes.
 */
import { describe, expect, it } from 'vitest';
import { internalCodeOfTxId, locationKeyOfTxId, newCashInTxId, newLocationKey } from '../../src/domain/ids';
import {
  CODE_KEY_BYTES,
  CODE_SPACE,
  COUNTER_CODE,
  counterCode,
  counterOfCode,
  RANDOM_CODE,
} from '../../src/domain/internal-code';
import { parseLocator } from '../../src/domain/location';
import { sipHash24, sipHash24Word, sipKey } from '../../src/security/siphash';

const keyOf = () => crypto.getRandomValues(new Uint8Array(CODE_KEY_BYTES));

describe('internal codes from a counter', () => {
  it("keys its rounds with SipHash-2-4 as its authors' test vectors give it", () => {
    const key = sipKey(Uint8Array.from({ length: 16 }, (_, i) => i));
    const hex = ([hi, lo]: [number, number]) =>
      hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
    // The paper's example (appendix A) and the reference vectors' first and 8-byte entries.
    expect(
      hex(
        sipHash24(
          key,
          Uint8Array.from({ length: 15 }, (_, i) => i),
        ),
      ),
    ).toBe('a129ca6149be45e5');
    expect(hex(sipHash24(key, new Uint8Array(0)))).toBe('726fdb47dd0e0e31');
    expect(
      hex(
        sipHash24(
          key,
          Uint8Array.from({ length: 8 }, (_, i) => i),
        ),
      ),
    ).toBe('93f5f5799a932462');
    // The one-word form the permutation uses: bytes 00..07 are the word 0x07060504·2^32 + 0x03020100.
    expect(hex(sipHash24Word(key, 0x07060504, 0x03020100))).toBe('93f5f5799a932462');
  });

  it('100,000 counter values give 100,000 distinct codes, each a lowercase letter and six alphanumerics', () => {
    const key = keyOf();
    const codes = new Set<string>();
    for (let n = 0; n < 100_000; n++) {
      const code = counterCode(key, n);
      if (!COUNTER_CODE.test(code) || RANDOM_CODE.test(code)) throw new Error(`code ${code} of ${n}`);
      codes.add(code);
    }
    expect(codes.size).toBe(100_000);
    // Spread over the whole space, not counting up: first letters and tails vary from the start.
    const first = [...codes].slice(0, 1000);
    expect(new Set(first.map((c) => c[0])).size).toBeGreaterThan(20);
  });

  it('is a bijection: the inverse gives each counter value back, at the edges of the space too', () => {
    const key = keyOf();
    for (const n of [0, 1, 2, 61, 62, 1_000_000, CODE_SPACE - 2, CODE_SPACE - 1])
      expect(counterOfCode(key, counterCode(key, n))).toBe(n);
    for (let i = 0; i < 2_000; i++) {
      const n = Math.floor(Math.random() * CODE_SPACE);
      expect(counterOfCode(key, counterCode(key, n))).toBe(n);
    }
    expect(counterOfCode(key, 'K7Q2M9X')).toBeUndefined();
    expect(() => counterCode(key, CODE_SPACE)).toThrow(RangeError);
    expect(() => counterCode(key, -1)).toThrow(RangeError);
    expect(() => counterCode(new Uint8Array(8), 0)).toThrow(RangeError);
  });

  it("another client's key gives other codes for the same counter values", () => {
    const [a, b] = [keyOf(), keyOf()];
    const same = Array.from({ length: 1000 }, (_, n) => counterCode(a, n) === counterCode(b, n)).filter(
      Boolean,
    );
    expect(same.length).toBeLessThan(3);
  });

  it('TxIds and charge locators carry codes of both forms', () => {
    const locationKey = newLocationKey();
    for (const code of [counterCode(keyOf(), 7), 'K7Q2M9X']) {
      const txid = newCashInTxId(locationKey, code);
      expect(txid).toMatch(/^[A-Za-z0-9]{35}$/);
      expect(internalCodeOfTxId(txid)).toBe(code);
      expect(locationKeyOfTxId(txid)).toBe(locationKey);
      expect(parseLocator(`${locationKey}${code}`)).toEqual({ key: locationKey, internalCode: code });
    }
    // Neither form: a digit-led mixed-case code was never issued.
    const odd = `${locationKey}7bCdEfG${'x'.repeat(6)}`;
    expect(internalCodeOfTxId(odd)).toBeUndefined();
    expect(locationKeyOfTxId(odd)).toBeUndefined();
    expect(parseLocator(`${locationKey}7bCdEfG`)).toBeUndefined();
  });
});
