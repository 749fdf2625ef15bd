/**
 * The sandbox settlement partner: behaves like a bank adapter over the network would, with the
 * latency and failures the operator injected for it.
 */
import { activeFaults, type PartnerFault } from './faults';
import type { ChargeRegistration, PartnerOutcome, SettlementPartnerPort } from './port';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SandboxPartner implements SettlementPartnerPort {
  constructor(
    readonly ispb: string,
    private readonly env: Env,
  ) {}

  private async fault(operation: PartnerFault['operation']): Promise<PartnerFault | undefined> {
    return (await activeFaults(this.env)).find((f) => f.ispb === this.ispb && f.operation === operation);
  }

  async registerCharge(_charge: ChargeRegistration): Promise<PartnerOutcome<{ registeredAt: number }>> {
    const fault = await this.fault('CASH_IN');
    if (fault && fault.latencyMs > 0) await sleep(fault.latencyMs);
    return { ok: true, value: { registeredAt: Date.now() } };
  }
}
