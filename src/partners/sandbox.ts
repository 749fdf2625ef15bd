/**
 * The sandbox settlement partner: behaves like a bank adapter over the network would — latency,
 * asynchronous settlement, idempotent transfer requests — plus the faults the operator injected.
 * Its books live in D1 (`sandbox_transfers`) so every isolate sees the same bank.
 */
import { and, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { sandboxTransfers } from '../db/schema';
import { activeFaults, type PartnerFault } from './faults';
import type {
  ChargeRegistration,
  DevolutionRequest,
  PartnerOutcome,
  SettlementPartnerPort,
  TransferStatus,
} from './port';

/** How long the sandbox network takes to settle a devolution. */
export const SANDBOX_DEVOLUTION_MS = 1_000;

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

  async registerCharge(_charge: ChargeRegistration): Promise<PartnerOutcome<{ registeredAt: number }>> {
    await this.delay(await this.fault('CASH_IN'));
    return { ok: true, value: { registeredAt: Date.now() } };
  }

  async sendDevolution(request: DevolutionRequest): Promise<PartnerOutcome<{ acceptedAt: number }>> {
    await this.delay(await this.fault('CASH_IN'));
    const now = Date.now();
    await drizzle(this.env.DB)
      .insert(sandboxTransfers)
      .values({
        ispb: this.ispb,
        idempotencyId: request.endToEndId,
        kind: 'DEVOLUTION',
        amount: request.amountCents,
        outcome: 'SETTLED',
        endToEndId: request.endToEndId,
        createdAt: now,
        settlesAt: now + SANDBOX_DEVOLUTION_MS,
      })
      .onConflictDoUpdate({
        target: [sandboxTransfers.ispb, sandboxTransfers.idempotencyId],
        set: { requests: sql`${sandboxTransfers.requests} + 1` },
      });
    return { ok: true, value: { acceptedAt: now } };
  }

  async transferStatus(idempotencyId: string): Promise<TransferStatus> {
    const row = await drizzle(this.env.DB)
      .select()
      .from(sandboxTransfers)
      .where(and(eq(sandboxTransfers.ispb, this.ispb), eq(sandboxTransfers.idempotencyId, idempotencyId)))
      .get();
    if (!row) return { state: 'UNKNOWN' };
    if (Date.now() < row.settlesAt) return { state: 'PENDING' };
    if (row.outcome === 'FAILED')
      return { state: 'FAILED', failureCode: row.failureCode ?? 'PROCESSING_ERROR' };
    return { state: 'SETTLED', endToEndId: row.endToEndId ?? idempotencyId, settledAt: row.settlesAt };
  }
}
