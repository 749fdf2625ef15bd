/**
 * The payout adapter (Efí Pix Send) against Efí's own published contract (issue 17 §3, §6): the run
 * of `npm run partner:conformance` for payouts, and proof that the validator refuses what Efí's SDK
 * schemas refuse. Node-side because the schemas come from Efí's Node SDK.
 */
import { describe, expect, it } from 'vitest';
import { EfiContractValidator } from '../support/efi-contract';
import { runPayoutConformance } from '../support/efi-payout-conformance';

const created = () =>
  new Response(
    JSON.stringify({
      endToEndId: 'E09089356202611251200API00000001',
      idEnvio: 'abc123',
      valor: '1.00',
      horario: { solicitacao: '2026-11-25T12:00:00.000Z' },
      status: 'EM_PROCESSAMENTO',
    }),
    { status: 201 },
  );
const send = (idEnvio: string, body: unknown) =>
  new Request(`https://psp.test/v3/gn/pix/${idEnvio}`, { method: 'PUT', body: JSON.stringify(body) });
const valid = {
  valor: '1.00',
  pagador: { chave: 'pagamentos@connectpsp.example' },
  favorecido: { chave: 'maria@example.com', cpf: '12345678909' },
};

describe('payout adapter conformance (Efí Pix Send)', () => {
  it('sends, repeats, reads, lists, settles, fails and maps every documented refusal with 0 invalid exchanges', async () => {
    const result = await runPayoutConformance();
    expect(result.failures).toEqual([]);
    expect(result.invalid).toEqual([]);
    expect(result.operations).toBe(4); // send, status by idEnvio, sent list, balance
    expect(result.requests).toBeGreaterThanOrEqual(14);
  });

  it('the validator refuses what the contract refuses', async () => {
    const validator = new EfiContractValidator();
    await validator.exchange(send('abc123', valid), created());
    expect(validator.invalid).toEqual([]);
    await validator.exchange(send('abc123', { ...valid, valor: 1 }), created());
    await validator.exchange(send('7d0c6f4e-1a2b', valid), created());
    await validator.exchange(
      send('abc124', { ...valid, favorecido: { contaBanco: { nome: 'X', cpf: '1', tipoConta: 'tran' } } }),
      created(),
    );
    await validator.exchange(send('abc125', valid), new Response('{"error":"x"}', { status: 400 }));
    expect(validator.invalid).toHaveLength(4);
  });
});
