/**
 * ClientLedger: one Durable Object per client. It serializes everything that must be exact for
 * that client — idempotency keys, externalReference uniqueness, transaction state machines, the
 * ledger and the outbox — so none of it needs locks. Business rules live in src/domain; this class
 * is storage and orchestration.
 */
import { DurableObject } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { type DrizzleSqliteDODatabase, drizzle } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { buildDynamicBrCode } from '../src/domain/brcode';
import { type CashInCreated, type CashInView, cashInView } from '../src/domain/cash-in';
import { newCashInTxId, newInternalCode } from '../src/domain/ids';
import { amountFromCents } from '../src/domain/money';
import { failure, type OperationResult, success } from '../src/domain/result';
import { formatBrt } from '../src/domain/time';
import { partnerPort } from '../src/partners/port-registry';
import { externalReferenceTaken, findCashIn, internalCodeTaken } from './ledger/cash-in-store';
import { IdempotencyKeys } from './ledger/idempotency';
import migrations from './ledger/migrations/migrations';
import { appendEvent } from './ledger/outbox';
import * as schema from './ledger/schema';

export interface OnboardCommand {
  clientId: string;
  name: string;
  statementStartDate: string;
  accounts: { number: string; ispb: string; branch: string; type: 'TRANSACTIONAL' | 'PROPRIETARY' }[];
}

export interface CreateCashInCommand {
  idempotencyKey?: string;
  requestHash: string;
  amountCents: number;
  externalReference: string;
  expirationInMinutes: number;
  webhookUrl?: string;
  payer: { name: string; document: string };
  openFinanceRedirectUrl?: string;
  /** `host/pix/qr/<client key>`: the BR Code location prefix, without scheme. */
  locationPrefix: string;
  /** `https://host/open-finance/<client key>`: the payment page prefix. */
  paymentUrlPrefix: string;
}

interface Profile {
  clientId: string;
  name: string;
  statementStartDate: string;
}

export class ClientLedger extends DurableObject<Env> {
  private readonly db: DrizzleSqliteDODatabase<typeof schema>;
  private readonly idempotency: IdempotencyKeys;
  /** externalReferences of Cash-Ins being created right now (spec §7: 409 also for those). */
  private readonly creatingReferences = new Set<string>();
  private profile: Profile | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.db = drizzle(ctx.storage, { schema });
    this.idempotency = new IdempotencyKeys(this.db);
    ctx.blockConcurrencyWhile(async () => {
      await migrate(this.db, migrations);
      this.profile = this.readProfile();
    });
  }

  private readProfile(): Profile | undefined {
    const row = this.db.select().from(schema.settings).where(eq(schema.settings.key, 'profile')).get();
    return row?.value as Profile | undefined;
  }

  /** Idempotent: the admin API calls it at onboarding and may call it again after a failure. */
  async onboard(command: OnboardCommand): Promise<void> {
    const profile: Profile = {
      clientId: command.clientId,
      name: command.name,
      statementStartDate: command.statementStartDate,
    };
    this.ctx.storage.transactionSync(() => {
      this.db
        .insert(schema.settings)
        .values({ key: 'profile', value: profile })
        .onConflictDoUpdate({ target: schema.settings.key, set: { value: profile } })
        .run();
      for (const account of command.accounts) {
        this.db.insert(schema.accounts).values(account).onConflictDoNothing().run();
      }
    });
    this.profile = profile;
  }

  private requireProfile(): Profile {
    if (!this.profile) throw new Error('ClientLedger used before onboarding');
    return this.profile;
  }

  private transactionalAccount(ispb: string) {
    const rows = this.db.select().from(schema.accounts).where(eq(schema.accounts.ispb, ispb)).all();
    return rows.find((a) => a.type === 'TRANSACTIONAL');
  }

  /** The partner that receives a new charge: the client's first partner with an account. */
  private chargePartner(): string {
    const first = this.db
      .select({ ispb: schema.accounts.ispb })
      .from(schema.accounts)
      .where(eq(schema.accounts.type, 'TRANSACTIONAL'))
      .limit(1)
      .get();
    if (!first) throw new Error('client has no TRANSACTIONAL account');
    return first.ispb;
  }

  async createCashIn(command: CreateCashInCommand): Promise<OperationResult<CashInCreated>> {
    const profile = this.requireProfile();
    const now = Date.now();
    return this.idempotency.run(command.idempotencyKey, command.requestHash, now, async (remember) => {
      const reference = command.externalReference;
      if (this.creatingReferences.has(reference) || externalReferenceTaken(this.db, reference)) {
        return failure({
          code: 'DUPLICATED_EXTERNAL_REFERENCE',
          detail: `externalReference '${reference}' was already used for a Cash-In`,
        });
      }
      this.creatingReferences.add(reference);
      try {
        const transactionId = newCashInTxId();
        let internalCode = newInternalCode();
        while (internalCodeTaken(this.db, internalCode)) internalCode = newInternalCode();
        const partnerIspb = this.chargePartner();
        const expiresAt = now + command.expirationInMinutes * 60_000;
        const registered = await partnerPort(this.env, partnerIspb).registerCharge({
          txid: transactionId,
          amountCents: command.amountCents,
          expiresAt,
        });
        if (!registered.ok) {
          return failure({
            code: 'RULE_VIOLATION',
            detail: 'The settlement partner refused the charge; retry later',
          });
        }
        const locator = `${command.locationPrefix}${internalCode}`;
        const created: CashInCreated = {
          transactionId,
          internalCode,
          externalReference: reference,
          status: 'AWAITING_PAYMENT',
          amount: amountFromCents(command.amountCents),
          payer: { name: command.payer.name, document: command.payer.document },
          ...(command.openFinanceRedirectUrl
            ? { openFinanceData: { paymentUrl: `${command.paymentUrlPrefix}${internalCode}` } }
            : {
                pixData: {
                  copyAndPaste: buildDynamicBrCode({
                    location: locator,
                    amountCents: command.amountCents,
                    merchantName: profile.name,
                    merchantCity: 'SAO PAULO',
                  }),
                },
              }),
          requestedAt: formatBrt(now),
        };
        this.ctx.storage.transactionSync(() => {
          const row = this.db
            .insert(schema.cashIns)
            .values({
              transactionId,
              internalCode,
              externalReference: reference,
              status: 'AWAITING_PAYMENT',
              amount: command.amountCents,
              payerName: command.payer.name,
              payerDocument: command.payer.document,
              partnerIspb,
              webhookUrl: command.webhookUrl ?? null,
              redirectUrl: command.openFinanceRedirectUrl ?? null,
              flow: command.openFinanceRedirectUrl ? 'OPEN_FINANCE' : 'PIX',
              requestedAt: now,
              expiresAt,
            })
            .returning()
            .get();
          appendEvent(this.db, {
            aggregateId: transactionId,
            eventType: 'CASHIN_REQUESTED',
            data: cashInView(row),
            webhookUrl: row.webhookUrl,
            occurredAt: now,
          });
          remember(201, created);
        });
        return success(201, created);
      } finally {
        this.creatingReferences.delete(reference);
      }
    });
  }

  async getCashIn(id: string): Promise<CashInView | null> {
    const row = findCashIn(this.db, id);
    return row ? cashInView(row) : null;
  }

  /** What the BR Code location serves for a charge, looked up by its internalCode only. */
  async chargeLocation(internalCode: string) {
    const row = this.db
      .select()
      .from(schema.cashIns)
      .where(eq(schema.cashIns.internalCode, internalCode))
      .get();
    if (!row) return null;
    return {
      cashIn: cashInView(row),
      amountCents: row.amount,
      requestedAtMs: row.requestedAt,
      expiresAtMs: row.expiresAt,
      accountNumber: this.transactionalAccount(row.partnerIspb)?.number ?? row.partnerIspb,
    };
  }
}
