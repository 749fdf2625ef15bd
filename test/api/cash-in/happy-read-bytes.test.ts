/**
 * The exact bytes of GET by id and of a list page, for Cash-In and Cash-Out, in every status and
 * with every optional field: the reads are rendered without going through the views' objects
 * (pre-serialized in the ledger, lists by SQLite), so these pins catch any drift in key order,
 * omitted fields, number and time formatting or string escaping. Cash-In keys follow the order of
 * the contract's §2.2 table; Cash-Out keys are pinned in the order the gateway has always sent.
 */

import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { insertStoredCashIns } from '../../../durable-objects/ledger/cash-in/cash-in-store';
import { insertStoredCashOuts } from '../../../durable-objects/ledger/cash-out/cash-out-store';
import type { StoredRow } from '../../../durable-objects/ledger/db';
import { Integrator } from '../../support/harness';
import { ledgerStub } from '../../support/ledger';

const at = (time: string) => Date.parse(`2026-11-20T${time}-03:00`);
const BANK = '{"ispb":"11111111","bank":"Banco Pagador","branch":"0001","account":"12345-6"}';
const OURS = '{"ispb":"09089356","bank":"Efí S.A.","branch":"0001","account":"99887-7"}';
/** Every character JSON must escape, a non-BMP one and a 2-byte one. */
const TRICKY = 'ref "q" \\ \u0001\u001f\t\n é 😀 \u2028';

type Row = Record<string, string | number | null>;

const CASH_INS: Row[] = [
  { status: 'AWAITING_PAYMENT', amount: 15025, external_reference: TRICKY, end_to_end_id: 'E1' },
  { status: 'PAID', amount: 15000, end_to_end_id: 'E11111111202611201010abcdefghijk', payer_bank: BANK },
  { status: 'PAID', amount: 5, refund_state: 'FAILED', refund_failure_code: 'PIX_KEY_NOT_FOUND' },
  { status: 'REFUNDED', amount: 10, reason: 'FRAUD', end_to_end_id: 'E2', refund_end_to_end_id: 'D2' },
  { status: 'REFUNDED', amount: 1, reason: '', refund_end_to_end_id: 'D3', payer_name: 'José "Zé"' },
  { status: 'CANCELLED', amount: 999999999999 },
  { status: 'EXPIRED', amount: 100, end_to_end_id: 'E4' },
];

const CASH_OUTS: Row[] = [
  { status: 'PROCESSING', amount: 1050, end_to_end_id: 'E5' },
  { status: 'PENDING', amount: 7, external_reference: TRICKY },
  { status: 'COMPLETED', amount: 200000, end_to_end_id: 'E6', payee_bank: BANK, destination: 'account' },
  { status: 'CANCELLED', amount: 3, end_to_end_id: 'E7', failure_code: null },
  { status: 'CANCELLED', amount: 4, failure_code: 'INSUFFICIENT_FUNDS', settlement: null },
  { status: 'REFUNDED', amount: 99, end_to_end_id: 'E8', refund_end_to_end_id: 'D8', reason: 'FRAUD' },
];

const PIX = '{"type":"PIX","pixKeyType":"EMAIL","pixKey":"ana@example.com"}';
const ACCOUNT =
  '{"type":"BANK_ACCOUNT","bankAccount":{"ispb":"22222222","branch":"1","account":"123-4","accountType":"CACC"}}';

/** Inserts the rows straight into the client's SQLite, at known times one minute apart. */
async function seed(api: Integrator): Promise<void> {
  await runInDurableObject(ledgerStub(api.client.clientId), (_i, state) => {
    // Each row as stored, column by column, through its store (as the bench's seeding writes rows).
    const insert = (table: 'cash_ins' | 'cash_outs', row: Row) =>
      (table === 'cash_ins' ? insertStoredCashIns : insertStoredCashOuts)(state.storage.sql, [
        row as StoredRow,
      ]);
    CASH_INS.forEach((row, i) => {
      insert('cash_ins', {
        transaction_id: `TX${i}`,
        internal_code: `IN${i}`,
        external_reference: `ref-${i}`,
        payer_name: 'Maria da Silva',
        payer_document: '12345678909',
        partner_ispb: '09089356',
        flow: 'PIX',
        settlement: OURS,
        requested_at: at(`10:0${i}:00.007`),
        expires_at: at(`11:0${i}:59.999`),
        paid_at: at(`10:3${i}:01.100`),
        refunded_at: at(`10:4${i}:02.000`),
        cancelled_at: at(`10:5${i}:03.010`),
        ...row,
      });
    });
    CASH_OUTS.forEach((row, i) => {
      insert('cash_outs', {
        transaction_id: `00000000-0000-4000-8000-00000000000${i}`,
        internal_code: `OUT${i}`,
        external_reference: `out-${i}`,
        stage: 'DONE',
        payee_name: 'Ana Beneficiária',
        payee_document: '98765432100',
        destination_key: `k${i}`,
        settlement: OURS,
        requested_at: at(`12:0${i}:00.000`),
        completed_at: at(`12:1${i}:00.500`),
        cancelled_at: at(`12:2${i}:00.050`),
        refunded_at: at(`12:3${i}:00.005`),
        ...row,
        destination: row.destination === 'account' ? ACCOUNT : PIX,
      });
    });
  });
}

/** GET /cash-in/IN0..IN6 as answered before the reads were pre-serialized. */
const CASH_IN_BYTES = [
  '{"transactionId":"TX0","internalCode":"IN0","externalReference":"ref \\"q\\" \\\\ \\u0001\\u001f\\t\\n é 😀 \u2028","status":"AWAITING_PAYMENT","amount":150.25,"payer":{"name":"Maria da Silva","document":"12345678909"},"requestedAt":"2026-11-20T10:00:00.007-03:00","expiredAt":"2026-11-20T11:00:59.999-03:00"}',
  '{"transactionId":"TX1","internalCode":"IN1","externalReference":"ref-1","endToEndId":"E11111111202611201010abcdefghijk","status":"PAID","amount":150,"payer":{"name":"Maria da Silva","document":"12345678909","bankData":{"ispb":"11111111","bank":"Banco Pagador","branch":"0001","account":"12345-6"}},"settlement":{"ispb":"09089356","bank":"Efí S.A.","branch":"0001","account":"99887-7"},"requestedAt":"2026-11-20T10:01:00.007-03:00","paidAt":"2026-11-20T10:31:01.100-03:00","expiredAt":"2026-11-20T11:01:59.999-03:00"}',
  '{"transactionId":"TX2","internalCode":"IN2","externalReference":"ref-2","status":"PAID","refundFailure":{"code":"PIX_KEY_NOT_FOUND","message":"The PIX key was not found in the directory."},"amount":0.05,"payer":{"name":"Maria da Silva","document":"12345678909"},"settlement":{"ispb":"09089356","bank":"Efí S.A.","branch":"0001","account":"99887-7"},"requestedAt":"2026-11-20T10:02:00.007-03:00","paidAt":"2026-11-20T10:32:01.100-03:00","expiredAt":"2026-11-20T11:02:59.999-03:00"}',
  '{"transactionId":"TX3","internalCode":"IN3","externalReference":"ref-3","endToEndId":"D2","originalEndToEndId":"E2","status":"REFUNDED","reason":"FRAUD","amount":0.1,"payer":{"name":"Maria da Silva","document":"12345678909"},"settlement":{"ispb":"09089356","bank":"Efí S.A.","branch":"0001","account":"99887-7"},"requestedAt":"2026-11-20T10:03:00.007-03:00","paidAt":"2026-11-20T10:33:01.100-03:00","refundedAt":"2026-11-20T10:43:02.000-03:00","expiredAt":"2026-11-20T11:03:59.999-03:00"}',
  '{"transactionId":"TX4","internalCode":"IN4","externalReference":"ref-4","endToEndId":"D3","status":"REFUNDED","amount":0.01,"payer":{"name":"José \\"Zé\\"","document":"12345678909"},"settlement":{"ispb":"09089356","bank":"Efí S.A.","branch":"0001","account":"99887-7"},"requestedAt":"2026-11-20T10:04:00.007-03:00","paidAt":"2026-11-20T10:34:01.100-03:00","refundedAt":"2026-11-20T10:44:02.000-03:00","expiredAt":"2026-11-20T11:04:59.999-03:00"}',
  '{"transactionId":"TX5","internalCode":"IN5","externalReference":"ref-5","status":"CANCELLED","amount":9999999999.99,"payer":{"name":"Maria da Silva","document":"12345678909"},"requestedAt":"2026-11-20T10:05:00.007-03:00","cancelledAt":"2026-11-20T10:55:03.010-03:00","expiredAt":"2026-11-20T11:05:59.999-03:00"}',
  '{"transactionId":"TX6","internalCode":"IN6","externalReference":"ref-6","status":"EXPIRED","amount":1,"payer":{"name":"Maria da Silva","document":"12345678909"},"requestedAt":"2026-11-20T10:06:00.007-03:00","expiredAt":"2026-11-20T11:06:59.999-03:00"}',
];

/** GET /cash-out/OUT0..OUT5, likewise. */
const CASH_OUT_BYTES = [
  '{"transactionId":"00000000-0000-4000-8000-000000000000","internalCode":"OUT0","externalReference":"out-0","status":"PROCESSING","amount":10.5,"payee":{"name":"Ana Beneficiária","document":"98765432100","destination":{"type":"PIX","pixKeyType":"EMAIL","pixKey":"ana@example.com"}},"requestedAt":"2026-11-20T12:00:00.000-03:00"}',
  '{"transactionId":"00000000-0000-4000-8000-000000000001","internalCode":"OUT1","externalReference":"ref \\"q\\" \\\\ \\u0001\\u001f\\t\\n é 😀 \u2028","status":"PENDING","amount":0.07,"payee":{"name":"Ana Beneficiária","document":"98765432100","destination":{"type":"PIX","pixKeyType":"EMAIL","pixKey":"ana@example.com"}},"requestedAt":"2026-11-20T12:01:00.000-03:00"}',
  '{"transactionId":"00000000-0000-4000-8000-000000000002","internalCode":"OUT2","externalReference":"out-2","status":"COMPLETED","amount":2000,"payee":{"name":"Ana Beneficiária","document":"98765432100","destination":{"type":"BANK_ACCOUNT","bankAccount":{"ispb":"22222222","branch":"1","account":"123-4","accountType":"CACC"}},"bankData":{"ispb":"11111111","bank":"Banco Pagador","branch":"0001","account":"12345-6"}},"requestedAt":"2026-11-20T12:02:00.000-03:00","endToEndId":"E6","settlement":{"ispb":"09089356","bank":"Efí S.A.","branch":"0001","account":"99887-7"},"completedAt":"2026-11-20T12:12:00.500-03:00"}',
  '{"transactionId":"00000000-0000-4000-8000-000000000003","internalCode":"OUT3","externalReference":"out-3","status":"CANCELLED","amount":0.03,"payee":{"name":"Ana Beneficiária","document":"98765432100","destination":{"type":"PIX","pixKeyType":"EMAIL","pixKey":"ana@example.com"}},"requestedAt":"2026-11-20T12:03:00.000-03:00","endToEndId":"E7","failure":{"code":"PROCESSING_ERROR","message":"The transfer could not be processed."},"settlement":{"ispb":"09089356","bank":"Efí S.A.","branch":"0001","account":"99887-7"},"cancelledAt":"2026-11-20T12:23:00.050-03:00"}',
  '{"transactionId":"00000000-0000-4000-8000-000000000004","internalCode":"OUT4","externalReference":"out-4","status":"CANCELLED","amount":0.04,"payee":{"name":"Ana Beneficiária","document":"98765432100","destination":{"type":"PIX","pixKeyType":"EMAIL","pixKey":"ana@example.com"}},"requestedAt":"2026-11-20T12:04:00.000-03:00","failure":{"code":"INSUFFICIENT_FUNDS","message":"The TRANSACTIONAL balance was not enough for this transfer."},"cancelledAt":"2026-11-20T12:24:00.050-03:00"}',
  '{"transactionId":"00000000-0000-4000-8000-000000000005","internalCode":"OUT5","externalReference":"out-5","status":"REFUNDED","amount":0.99,"payee":{"name":"Ana Beneficiária","document":"98765432100","destination":{"type":"PIX","pixKeyType":"EMAIL","pixKey":"ana@example.com"}},"requestedAt":"2026-11-20T12:05:00.000-03:00","endToEndId":"D8","originalEndToEndId":"E8","reason":"FRAUD","settlement":{"ispb":"09089356","bank":"Efí S.A.","branch":"0001","account":"99887-7"},"completedAt":"2026-11-20T12:15:00.500-03:00","refundedAt":"2026-11-20T12:35:00.005-03:00"}',
];

async function text(api: Integrator, path: string): Promise<string> {
  const res = await api.get(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.text();
}

describe('GET by id and list pages answer exactly these bytes', () => {
  it('Cash-In and Cash-Out, every status', async () => {
    const api = await Integrator.create();
    await seed(api);
    const cashIns = await Promise.all(CASH_INS.map((_, i) => text(api, `/cash-in/IN${i}`)));
    const cashOuts = await Promise.all(CASH_OUTS.map((_, i) => text(api, `/cash-out/OUT${i}`)));
    expect(cashIns).toEqual(CASH_IN_BYTES);
    expect(cashOuts).toEqual(CASH_OUT_BYTES);
    const list = (kind: string, order: string) =>
      text(api, `/${kind}?from=2026-11-20&to=2026-11-20&limit=50&order=${order}`);
    expect(await list('cash-in', 'asc')).toBe(`{"items":[${cashIns.join(',')}]}`);
    expect(await list('cash-in', 'desc')).toBe(`{"items":[${cashIns.toReversed().join(',')}]}`);
    expect(await list('cash-out', 'asc')).toBe(`{"items":[${cashOuts.join(',')}]}`);
    expect(await list('cash-out', 'desc')).toBe(`{"items":[${cashOuts.toReversed().join(',')}]}`);
  });
});
