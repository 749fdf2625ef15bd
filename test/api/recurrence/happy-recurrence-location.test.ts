/**
 * The QR journey's location (docs/contract.md, Pix Automático): GET /pix/rec/{locator} serves the
 * recurrence as bacen/pix-api 2.9.0's `RecPayload` (vendored: test/fixtures/bcb-pix-api/openapi.yaml),
 * an ES256 JWS verifiable with /.well-known/jwks.json, its status history following the recurrence.
 */
import { Validator } from '@cfworker/json-schema';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import type { RecurrenceBody } from '../../../src/api/recurrence/shared';
import { parseBrCode } from '../../../src/domain/brcode';
import openapi from '../../fixtures/bcb-pix-api/openapi.yaml?raw';
import { call, Integrator } from '../../support/harness';
import { verifiedLocationPayload } from '../../support/location-jws';
import { recurrenceBody } from '../../support/recurrence';

type Doc = { components: { schemas: Record<string, unknown>; examples: Record<string, { value: unknown }> } };

/** The document's CPF pattern is a JavaScript regex literal (`/^\d{11}$/`): read by its intent. */
function byIntent(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(byIntent);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [
      k,
      k === 'pattern' && typeof v === 'string' && /^\/.+\/$/.test(v) ? v.slice(1, -1) : byIntent(v),
    ]),
  );
}

const doc = byIntent(yaml.load(openapi)) as Doc;
const recPayload = new Validator(
  { $ref: '#/components/schemas/RecPayload', components: { schemas: doc.components.schemas } } as never,
  '2019-09',
  false,
);

describe('GET /pix/rec/{locator}', () => {
  it("serves the recurrence as the vendored RecPayload, signed; its history follows the payer's answer", async () => {
    const api = await Integrator.create();
    const created = await api.post(
      '/recurrences',
      recurrenceBody({ startDate: '2027-01-31', endDate: '2027-12-31', description: 'Assinatura mensal' }),
    );
    const rec = (await created.json()) as RecurrenceBody;
    const parsed = parseBrCode(rec.authorization.copyAndPaste!);
    expect(parsed.ok).toBe(true);
    const location = parsed.ok ? (parsed.fields.recurrence?.url ?? '') : '';
    expect(location.length).toBeLessThanOrEqual(77);
    const path = new URL(`http://${location}`).pathname;
    expect(path).toMatch(/^\/pix\/rec\/[A-Za-z0-9_-]{22}[A-Z0-9]{7}$/);

    const waiting = await verifiedLocationPayload(path);
    const account = api.client.accounts.find((a) => a.type === 'TRANSACTIONAL')!;
    expect(waiting).toEqual({
      idRec: rec.recurrenceId,
      vinculo: {
        objeto: 'Assinatura mensal',
        devedor: { cpf: '12345678909', nome: 'Maria da Silva' },
        contrato: 'PLANO-MENSAL-42',
      },
      calendario: { dataInicial: '2027-01-31', dataFinal: '2027-12-31', periodicidade: 'MENSAL' },
      valor: { valorRec: '29.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
      recebedor: { nome: 'Loja Teste Ltda', ispbParticipante: account.bank.ispb },
      atualizacao: [{ status: 'CRIADA', data: new Date(Date.parse(rec.createdAt)).toISOString() }],
    });
    // As valid as the document's own example (both lack `retentativa`, which RecBase requires but never
    // defines), but for the receiver's CNPJ, which the gateway does not record.
    const example = doc.components.examples.recPayload1?.value;
    expect(
      recPayload
        .validate(example)
        .errors.filter((e) => e.keyword === 'required')
        .map((e) => e.error),
    ).toEqual(['Instance does not have required property "retentativa".']);
    const withCnpj = { ...waiting, recebedor: { ...waiting.recebedor, cnpj: '12345678000195' } };
    expect(recPayload.validate(withCnpj).errors).toEqual(recPayload.validate(example).errors);
    expect(recPayload.validate(waiting).errors.length).toBeGreaterThan(
      recPayload.validate(example).errors.length,
    );

    expect((await api.post(`/sandbox/recurrences/${rec.recurrenceId}/approve`, {})).status).toBe(200);
    expect((await api.post(`/recurrences/${rec.recurrenceId}/cancel`, {})).status).toBe(200);
    const ended = await verifiedLocationPayload(path);
    expect(ended.atualizacao.map((a: { status: string }) => a.status)).toEqual([
      'CRIADA',
      'APROVADA',
      'CANCELADA',
    ]);

    // Another key, another code, a Cash-In's location: nothing.
    const key = path.slice('/pix/rec/'.length, -7);
    expect((await call(`/pix/rec/${key}ZZZZZZZ`)).status).toBe(404);
    expect((await call(`/pix/rec/AAAAAAAAAAAAAAAAAAAAAA${path.slice(-7)}`)).status).toBe(404);
    expect((await call(`/pix/qr${path.slice('/pix/rec'.length)}`)).status).toBe(404);
  });

  it('a PUSH recurrence has no location', async () => {
    const api = await Integrator.create();
    const rec = (await (
      await api.post(
        '/recurrences',
        recurrenceBody({
          payer: {
            name: 'Maria da Silva',
            document: '12345678909',
            bankData: { ispb: '00360305', branch: '1', account: '12345-6' },
          },
        }),
      )
    ).json()) as RecurrenceBody;
    expect(rec.authorization).toEqual({ journey: 'PUSH' });
  });
});
