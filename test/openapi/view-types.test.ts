/**
 * The documented response schemas (src/api/<resource>/, by operation or in shared.ts) and the types the code builds its
 * responses from must have the same fields, with the same optionality, at every depth. This is a
 * compile-time check: `npm run check` (tsc) fails when a view gains, loses or re-optionalizes a
 * field without the document following. Value formats are checked at runtime by conformance tests.
 */
import type * as v from 'valibot';
import { expectTypeOf, it } from 'vitest';
import type { RefundBody } from '../../durable-objects/ledger/cash-in/refund-ops';
import type { CashOutAccepted as CashOutAcceptedBody } from '../../durable-objects/ledger/cash-out/cash-out-ops';
import type { Deposit as DepositBody } from '../../durable-objects/ledger/ledger/transfer-ops';
import type { DeliveryView } from '../../durable-objects/ledger/webhooks/delivery-view';
import type * as balance from '../../src/api/account/get-balance';
import type * as statement from '../../src/api/account/get-statement';
import type * as rebalance from '../../src/api/account/rebalance';
import type * as account from '../../src/api/account/schemas';
import type * as admin from '../../src/api/admin/openapi-responses';
import type * as cashInSchemas from '../../src/api/cash-in/schemas';
import type * as cashIn from '../../src/api/cash-in/shared';
import type * as cashOutSchemas from '../../src/api/cash-out/schemas';
import type * as cashOut from '../../src/api/cash-out/shared';
import type { CashInCreated as CashInCreatedBody, CashInView } from '../../src/domain/cash-in';
import type { CashOutView } from '../../src/domain/cash-out';
import type { AccountView, StatementItem as StatementItemView } from '../../src/domain/statement';
import type { balanceBody, Rebalance as RebalanceBody } from '../../src/domain/wallet';

/** Field names and optionality at every depth; leaf value types are left to the runtime tests. */
type Shape<T> = T extends readonly (infer U)[]
  ? Shape<U>[]
  : T extends object
    ? { [K in keyof T]: Shape<T[K]> }
    : 'leaf';

type Documented<S extends v.GenericSchema> = Shape<v.InferOutput<S>>;

it('Cash-In views match the documented shapes', () => {
  expectTypeOf<Shape<CashInView>>().toEqualTypeOf<Documented<typeof cashIn.CashIn>>();
  expectTypeOf<Shape<CashInCreatedBody>>().toEqualTypeOf<Documented<typeof cashIn.CashInCreated>>();
  expectTypeOf<Shape<RefundBody>>().toEqualTypeOf<Documented<typeof cashInSchemas.RefundAccepted>>();
});

it('Cash-Out views match the documented shapes', () => {
  expectTypeOf<Shape<CashOutView>>().toEqualTypeOf<Documented<typeof cashOut.CashOut>>();
  expectTypeOf<Shape<CashOutAcceptedBody>>().toEqualTypeOf<
    Documented<typeof cashOutSchemas.CashOutAccepted>
  >();
});

it('account views match the documented shapes', () => {
  expectTypeOf<Shape<StatementItemView>>().toEqualTypeOf<Documented<typeof account.StatementItem>>();
  expectTypeOf<Shape<AccountView>>().toEqualTypeOf<Documented<typeof statement.Statement>['account']>();
  expectTypeOf<Shape<ReturnType<typeof balanceBody>>>().toEqualTypeOf<Documented<typeof balance.Balance>>();
  expectTypeOf<Shape<RebalanceBody>>().toEqualTypeOf<Documented<typeof rebalance.RebalanceResult>>();
  expectTypeOf<Shape<DepositBody>>().toEqualTypeOf<Documented<typeof account.Deposit>>();
});

it('operator views match the documented shapes', () => {
  expectTypeOf<Shape<DeliveryView>>().toEqualTypeOf<Documented<typeof admin.WebhookDelivery>>();
});
