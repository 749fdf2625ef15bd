/**
 * The BCB API Pix adapter against the central bank's own document: every request the adapter sends
 * and every answer of the fake PSP validate against the vendored openapi.yaml, and the adapter
 * meets every expectation of the conformance run (the same run as `npm run partner:conformance`).
 */
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { centsToDecimal, decimalToCents } from '../../src/partners/bcb-api-pix/money';
import openapi from '../fixtures/bcb-pix-api/openapi.yaml?raw';
import { OpenApiValidator, runConformance } from '../support/bcb-pix-conformance';

const doc = yaml.load(openapi) as ConstructorParameters<typeof OpenApiValidator>[0];

describe('BCB API Pix conformance', () => {
  it('drives every operation with 0 invalid exchanges', async () => {
    const result = await runConformance(doc);
    expect(result.failures).toEqual([]);
    expect(result.invalid).toEqual([]);
    expect(result.operations).toBeGreaterThanOrEqual(6);
  });

  it('the validator rejects a charge whose amount is a number, not the decimal string', async () => {
    const validator = new OpenApiValidator(doc);
    const request = new Request('https://psp.test/api/v2/cob/CPSPtx0000000000000000000000001', {
      method: 'PUT',
      body: JSON.stringify({ calendario: { expiracao: 60 }, valor: { original: 10 }, chave: 'k' }),
    });
    const problem = {
      type: 'https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida',
      title: 'x',
      status: 400,
    };
    const response = new Response(JSON.stringify(problem), {
      status: 400,
      headers: { 'content-type': 'application/problem+json' },
    });
    await validator.exchange(request, response);
    expect(validator.invalid).toHaveLength(1);
  });

  it('converts money exactly both ways', () => {
    for (const cents of [0, 1, 10, 99, 100, 12_345, 999_999_999_999])
      expect(decimalToCents(centsToDecimal(cents))).toBe(cents);
    expect(centsToDecimal(5)).toBe('0.05');
    expect(decimalToCents('1.5')).toBeUndefined();
    expect(decimalToCents('1.005')).toBeUndefined();
  });
});
