import { describe, expect, it } from 'vitest';
import type { CashInCreatedBody } from '../../../src/api/cash-in/create-cash-in';
import type { CashInBody } from '../../../src/api/cash-in/shared';
import { COUNTER_CODE } from '../../../src/domain/internal-code';
import { cashInBody, Integrator } from '../../support/harness';

describe('POST /cash-in and GET /cash-in/{id}', () => {
  it('creates a Cash-In and reads it back by internalCode and transactionId', async () => {
    const api = await Integrator.create();
    const res = await api.post('/cash-in', cashInBody({ amount: 10.5 }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as CashInCreatedBody;
    expect(created.status).toBe('AWAITING_PAYMENT');
    expect(created.amount).toBe(10.5);
    expect(created.internalCode).toMatch(COUNTER_CODE);
    expect(created.transactionId).toMatch(/^[A-Za-z0-9]{26,35}$/);
    expect(created.pixData!.copyAndPaste).toContain('br.gov.bcb.pix');
    expect(created.pixData!.qrCodeImageBase64).toMatch(/^iVBORw0KGgo/);
    expect(created.requestedAt).toMatch(/-03:00$/);

    for (const id of [created.internalCode, created.transactionId, created.externalReference]) {
      const got = await api.get(`/cash-in/${encodeURIComponent(id)}`);
      expect(got.status).toBe(200);
      const body = (await got.json()) as CashInBody & { pixData?: unknown };
      expect(body.transactionId).toBe(created.transactionId);
      expect(body.pixData).toBeUndefined();
      expect(body.settlement).toBeUndefined();
      expect(body.expiredAt).toMatch(/-03:00$/);
    }
  });
});
