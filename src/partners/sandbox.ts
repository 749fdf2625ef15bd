/**
 * The sandbox settlement partner: behaves like a bank adapter over the network would — latency,
 * asynchronous settlement, idempotent transfer requests — plus the faults the operator injected.
 * Its books live in D1 (`sandbox_transfers`) so every isolate sees the same bank.
 */
import {
  findSandboxTransfer,
  findSandboxTransfers,
  recordSandboxTransfer,
  recordSandboxTransfers,
  type SandboxTransferRow,
} from '../db/sandbox-transfers';
import { FAILURE_CODES } from '../domain/failure-codes';
import { newEndToEndId } from '../domain/ids';
import { KNOWN_INSTITUTIONS } from './catalog';
import { activeFaults, type PartnerFault } from './faults';
import type {
  ChargeRegistration,
  DevolutionRequest,
  PartnerOutcome,
  PaymentRequest,
  ReceivingAccount,
  RegisteredCharge,
  SettlementPartnerPort,
  StatusOrUnread,
  TransferStatus,
} from './port';

/** How long the sandbox network takes to settle a devolution. */
export const SANDBOX_DEVOLUTION_MS = 1_000;
/** A sandbox payment settles within this window after it is sent ("within a few seconds"). */
export const SANDBOX_PAYMENT_MS = { min: 800, max: 2_000 };

const MAGIC_DOMAIN = '@sandbox.pix';

/** docs/contract.md, Sandbox: an EMAIL key `<failure code in lowercase>@sandbox.pix` fails with that code. */
export function magicFailure(request: PaymentRequest): string | undefined {
  const d = request.payee.destination;
  if (d.type !== 'PIX' || d.pixKeyType !== 'EMAIL' || !d.pixKey.toLowerCase().endsWith(MAGIC_DOMAIN))
    return undefined;
  const code = d.pixKey.slice(0, -MAGIC_DOMAIN.length).toUpperCase();
  return (FAILURE_CODES as readonly string[]).includes(code) ? code : undefined;
}

/** The directory's answer for a key: a stable institution and account per key. */
function resolveReceiver(request: PaymentRequest): ReceivingAccount {
  const d = request.payee.destination;
  if (d.type === 'BANK_ACCOUNT')
    return { ispb: d.bankAccount.ispb, branch: d.bankAccount.branch, account: d.bankAccount.account };
  let h = 2166136261;
  for (const ch of d.pixKey) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const ispbs = Object.keys(KNOWN_INSTITUTIONS);
  const ispb = ispbs[h % ispbs.length] as string;
  const digits = String(h % 10_000_000).padStart(7, '0');
  return {
    ispb,
    branch: String(1 + (h % 9000)).padStart(4, '0'),
    account: `${digits.slice(0, 6)}-${digits[6]}`,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SandboxPartner implements SettlementPartnerPort {
  constructor(
    readonly ispb: string,
    private readonly env: Env,
  ) {}

  private async fault(operation: PartnerFault['operation']): Promise<PartnerFault | undefined> {
    return (await activeFaults(this.env)).find((f) => f.ispb === this.ispb && f.operation === operation);
  }

  private async delay(fault: PartnerFault | undefined): Promise<void> {
    if (fault && fault.latencyMs > 0) await sleep(fault.latencyMs);
  }

  /** The gateway hosts the sandbox's BR Code locations: no bank stands behind them. */
  readonly issuesBrCode = false;
  /** The simulated network knows every payer: the pay request's (docs/contract.md, Who paid). */
  readonly reportsPayer = true;

  async registerCharge(_charge: ChargeRegistration): Promise<PartnerOutcome<RegisteredCharge>> {
    await this.delay(await this.fault('CASH_IN'));
    return { ok: true, value: { registeredAt: Date.now() } };
  }

  async sendDevolution(request: DevolutionRequest): Promise<PartnerOutcome<{ acceptedAt: number }>> {
    const fault = await this.fault('CASH_IN');
    await this.delay(fault);
    const now = Date.now();
    // A Cash-In fault with a failure rate fails devolutions at the network (the refund then fails).
    const failed = fault !== undefined && Math.random() * 1_000_000 < fault.failureRatePpm;
    await recordSandboxTransfer(this.env, {
      ispb: this.ispb,
      idempotencyId: request.endToEndId,
      kind: 'DEVOLUTION',
      amount: request.amountCents,
      outcome: failed ? 'FAILED' : 'SETTLED',
      failureCode: failed ? (fault?.failureCode ?? 'PROVIDER_UNAVAILABLE') : null,
      endToEndId: request.endToEndId,
      createdAt: now,
      settlesAt: now + SANDBOX_DEVOLUTION_MS,
    });
    return { ok: true, value: { acceptedAt: now } };
  }

  async sendPayment(request: PaymentRequest): Promise<PartnerOutcome<{ acceptedAt: number }>> {
    return (await this.sendPayments([request]))[0] as PartnerOutcome<{ acceptedAt: number }>;
  }

  /** Many payments are one call here. */
  callRounds(): number {
    return 1;
  }

  /** One fault look-up, one delay and one D1 statement for all the payments. */
  async sendPayments(requests: PaymentRequest[]): Promise<PartnerOutcome<{ acceptedAt: number }>[]> {
    const fault = await this.fault('CASH_OUT');
    await this.delay(fault);
    const now = Date.now();
    const rows = requests.map((request) => {
      const magic = magicFailure(request);
      const faulted = fault !== undefined && Math.random() * 1_000_000 < fault.failureRatePpm;
      const failureCode = magic ?? (faulted ? (fault?.failureCode ?? 'PROVIDER_UNAVAILABLE') : undefined);
      const span =
        SANDBOX_PAYMENT_MS.min +
        Math.floor(Math.random() * (SANDBOX_PAYMENT_MS.max - SANDBOX_PAYMENT_MS.min));
      return {
        ispb: this.ispb,
        idempotencyId: request.idempotencyId,
        kind: 'PAYMENT' as const,
        amount: request.amountCents,
        outcome: failureCode ? ('FAILED' as const) : ('SETTLED' as const),
        failureCode: failureCode ?? null,
        endToEndId: failureCode ? null : newEndToEndId('E', this.ispb, now),
        payeeBank: failureCode ? null : resolveReceiver(request),
        createdAt: now,
        settlesAt: now + span + (fault?.latencyMs ?? 0),
      };
    });
    await recordSandboxTransfers(this.env, this.ispb, rows);
    return requests.map(() => ({ ok: true, value: { acceptedAt: now } }));
  }

  /** The sandbox keeps devolutions by their own id, like payments. */
  devolutionStatus(_originalEndToEndId: string, devolutionId: string): Promise<TransferStatus> {
    return this.transferStatus(devolutionId);
  }

  async transferStatus(idempotencyId: string): Promise<TransferStatus> {
    return statusOf(await findSandboxTransfer(this.env, this.ispb, idempotencyId), idempotencyId);
  }

  async transferStatuses(idempotencyIds: string[]): Promise<StatusOrUnread[]> {
    const rows = await findSandboxTransfers(this.env, this.ispb, idempotencyIds);
    return idempotencyIds.map((id) => statusOf(rows.get(id), id));
  }
}

/** What the partner's books say about one transfer now. */
function statusOf(row: SandboxTransferRow | undefined, idempotencyId: string): TransferStatus {
  if (!row) return { state: 'UNKNOWN' };
  if (Date.now() < row.settlesAt) return { state: 'PENDING' };
  if (row.outcome === 'FAILED')
    return { state: 'FAILED', failureCode: row.failureCode ?? 'PROCESSING_ERROR' };
  return {
    state: 'SETTLED',
    endToEndId: row.endToEndId ?? idempotencyId,
    settledAt: row.settlesAt,
    ...(row.payeeBank && { payeeBank: row.payeeBank }),
  };
}
