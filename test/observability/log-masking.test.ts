/**
 * Where request logs mask: secrets everywhere; documents only where documents are (fields named for
 * one, free text from elsewhere, a path segment or query value that is a document as a whole),
 * never inside an id; and a partner's webhook secret path segment whatever the route answers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  legacyCashInTxId,
  newCashInTxId,
  newEndToEndId,
  newLocationKey,
  randomCode,
} from '../../src/domain/ids';
import { CODE_KEY_BYTES, counterCode } from '../../src/domain/internal-code';
import { log, loggablePath } from '../../src/infra/log';
import { FAKE_PSP_ISPB } from '../support/fake-psp-env';
import { call } from '../support/harness';
import { SECRET } from '../support/partner-psp';

const CPF = '52998224725';
const CNPJ = '11222333000181';
/** The alphanumeric CNPJ form: 12 of [0-9A-Z], 2 check digits. */
const CNPJ_ALPHA = '12ABC34501DE35';

let lines: string[] = [];
const spies: ReturnType<typeof vi.spyOn>[] = [];
beforeEach(() => {
  lines = [];
  for (const method of ['log', 'info', 'warn', 'error'] as const)
    spies.push(
      vi.spyOn(console, method).mockImplementation((line: unknown) => void lines.push(String(line))),
    );
});
afterEach(() => {
  for (const spy of spies.splice(0)) spy.mockRestore();
});

const logged = () =>
  lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('document masking never alters ids', () => {
  it('10,000 random UUIDs and transaction ids (codes of both forms) pass through a request log unchanged', () => {
    const ids: string[] = [];
    const codeKey = crypto.getRandomValues(new Uint8Array(CODE_KEY_BYTES));
    for (let i = 0; i < 10_000; i++) {
      const uuid = crypto.randomUUID();
      ids.push(
        uuid,
        newCashInTxId(newLocationKey(), counterCode(codeKey, i)),
        newCashInTxId(newLocationKey(), randomCode()),
        legacyCashInTxId(uuid, randomCode()),
        newEndToEndId('E', '31880826', Date.now()),
      );
    }
    // Sanity: the sample holds the ids the old masking broke (an 11-digit run inside a UUID).
    expect(ids.filter((id) => /(?<!\d)\d{11}(?!\d)/.test(id)).length).toBeGreaterThan(0);
    for (const id of ids) {
      log('info', 'request', {
        path: `/cash-out/${id}`,
        transactionId: id,
        ids: [id],
        nested: { endToEndId: id },
      });
    }
    const entries = logged();
    expect(entries).toHaveLength(ids.length);
    entries.forEach((entry, i) => {
      const id = ids[i] as string;
      expect(entry.path).toBe(`/cash-out/${id}`);
      expect(entry.transactionId).toBe(id);
      expect(entry.ids).toEqual([id]);
      expect(entry.nested).toEqual({ endToEndId: id });
    });
  });

  it('still masks documents in bodies, known fields, whole path segments and query values', () => {
    log('warn', 'partner answer', {
      body: `{"devedor":{"cpf":"${CPF}","cnpj":"${CNPJ_ALPHA}"},"ref":"pedido-${CNPJ}"}`,
      detail: `payer ${CPF} refused`,
      document: CPF,
      payee: { taxId: CNPJ, pixKey: CPF, document: CNPJ_ALPHA },
      blockedPayerDocuments: [CNPJ, CNPJ_ALPHA],
      path: `/cash-in/${CPF}?document=${CNPJ}&cnpj=${CNPJ_ALPHA}&from=2026-01-01`,
    });
    const line = lines.join('\n');
    for (const document of [CPF, CNPJ, CNPJ_ALPHA]) expect(line).not.toContain(document);
    const [entry] = logged();
    expect(entry?.path).toBe('/cash-in/[document]?document=[document]&cnpj=[document]&from=2026-01-01');
  });

  it('keeps the journey ids an operator searches for, in the path and the query', () => {
    const id = '8b1ccb4b-ebc6-41b4-8354-12345678901d';
    expect(loggablePath(`/cash-out/${id}`)).toBe(`/cash-out/${id}`);
    expect(loggablePath(`/cash-in?after=${id}&limit=10`)).toBe(`/cash-in?after=${id}&limit=10`);
  });
});

describe("a partner's webhook secret never reaches a log", () => {
  it.each([
    ['with a trailing slash', `/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}/pix/`],
    ['without /pix (404)', `/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}`],
    ['with a trailing slash only', `/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}/`],
    ['under an unknown partner', `/partners/12345678/webhook/${SECRET}/pix`],
    ['below /pix', `/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}/pix/x`],
    ['with the segment name encoded', `/partners/${FAKE_PSP_ISPB}/%77ebhook/${SECRET}/pix`],
    ['in the query', `/partners/${FAKE_PSP_ISPB}/webhook/${SECRET}/pix?x=1`],
  ])('%s', async (_, path) => {
    const res = await call(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"pix":[]}',
    });
    expect(res.status).toBeLessThan(500);
    const requestLine = logged().find((l) => l.message === 'request');
    expect(requestLine?.path).toContain('/***');
    expect(lines.filter((l) => l.includes(SECRET))).toEqual([]);
  });
});
