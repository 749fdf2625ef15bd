/**
 * The soak's real-bank leg: clients onboarded onto a `bcb-api-pix` partner backed by the mock PSP
 * (test/setup/fake-psp.ts), whose side the soak plays through `/__control/…`: payers pay charges,
 * banks return payments (MED), the network settles or refuses devolutions, the PSP posts callbacks
 * — or loses them — and goes down for minutes at a time (BANK_OUTAGES). A second payment of a
 * charge is an unapplied receipt whose devolution the network first refuses, then (mostly) settles.
 * The PSP's list of received Pix (`GET /pix?inicio…`) is down from the start for a while: the first
 * reconciliations of the day that closed before the run (the gateway's first midnight) find it
 * down, and the day must still end checked. Its clients take deposits only from the declared payer
 * (`payerPolicy` DECLARED_PAYER, docs/contract.md, Who paid); a third party pays now and then, and
 * that payment must go back whole. The gateway must end with the PSP's books all the same
 * (bank-books.ts): what it does not hear it has to ask for.
 */

import { present } from '../../src/domain/present';
import type { Gateway, Json, Onboarded } from './api';
import { ClientSession, UnexpectedResponse } from './api';
import { startArchiver } from './archiver';
import { AmountPicker, type Random } from './plan';
import type { TrafficLog } from './snapshot';
import type { SoakClient } from './soak-context';

/** What the bank leg needs from the caller: the partner, its webhook secret and the PSP's controls. */
export interface BankOptions {
  ispb: string;
  webhookSecret: string;
  /** `GET`/`POST` the mock PSP's `/__control/<path>` and answer its JSON. */
  control: (path: string, body?: unknown) => Promise<Json>;
  clients?: number;
  concurrency?: number;
  /** How long to wait after the traffic for the gateway to agree with the PSP (default 8 min). */
  finalityTimeoutMs?: number;
}

export const BANK_SCENARIOS = {
  'bank.paid': 24,
  'bank.paid-quietly': 10,
  'bank.unpaid': 6,
  'bank.refund': 10,
  'bank.med': 10,
  'bank.med-over-refund': 6,
  'bank.third-party': 8,
  'bank.return-refused-then-settled': 6,
  'bank.dispute': 8,
} as const;
export type BankScenario = keyof typeof BANK_SCENARIOS;

/** A PSP outage: from `startMs` into the traffic, for `ms`. */
export interface Outage {
  startMs: number;
  ms: number;
}

/** How long the PSP cannot list received Pix from the start (the sweep and the reconciliation). */
export function listingOutageMs(durationMs: number): number {
  return Math.min(5 * 60_000, Math.round(durationMs * 0.5));
}

/** A short outage early, then a long one (up to 10 minutes) that ends before the traffic does. */
export function bankOutages(durationMs: number): Outage[] {
  return [
    { startMs: Math.round(durationMs * 0.1), ms: Math.min(30_000, Math.round(durationMs * 0.05)) },
    { startMs: Math.round(durationMs * 0.25), ms: Math.min(10 * 60_000, Math.round(durationMs * 0.6)) },
  ];
}

export interface BankTx {
  clientId: string;
  scenario: BankScenario;
  transactionId: string;
  internalCode: string;
  amountCents: number;
  /** The payment's end-to-end id, once a payer paid at the PSP. */
  endToEndId?: string;
  /** Paid by someone else than the declared payer: not allowed, returned automatically. */
  thirdParty?: boolean;
}

/** A second payment of a charge (an unapplied receipt) and what the network did with its return. */
export interface BankDuplicate {
  clientId: string;
  endToEndId: string;
  /** The devolution's id at the PSP, once the gateway asked for it. */
  devolutionId?: string;
  refused: boolean;
  settled: boolean;
}

export interface BankLog {
  transactions: BankTx[];
  duplicates: BankDuplicate[];
  /** When the PSP's list of received Pix was down. */
  listingOutage?: { from: number; to: number };
  ops: Map<BankScenario, { ok: number; failed: number }>;
  outages: { from: number; to: number }[];
  /** Callbacks the PSP would have posted and did not (lost, or the PSP was down). */
  lost: { payments: number; returns: number; devolutions: number };
  callbacks: number;
  /** Charges the gateway could not register while the PSP was down (422, retry later). */
  refusedCharges: number;
  /** MED infractions opened at the PSP, how many the gateway recorded in time, and the money-out breaches seen. */
  disputes: { opened: number; recorded: number; breaches: string[] };
}

export interface BankRun {
  clients: SoakClient[];
  log: BankLog;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const brl = (cents: number) => (cents / 100).toFixed(2);
const cents = (amount: number | string) => Math.round(Number(amount) * 100);

class BankDriver {
  private sequence = 0;
  private readonly outageUntil = { at: 0 };

  constructor(
    readonly gateway: Gateway,
    readonly random: Random,
    readonly o: BankOptions,
    readonly log: BankLog,
    private readonly run: string,
  ) {}

  get down(): boolean {
    return Date.now() < this.outageUntil.at;
  }

  async outage(ms: number): Promise<void> {
    const from = Date.now();
    this.outageUntil.at = from + ms;
    await this.o.control('outage', { match: '', ms });
    await sleep(ms);
    this.log.outages.push({ from, to: Date.now() });
  }

  /** The PSP posts its callback for this Pix, unless it lost it (`lostRate`) or is down. */
  async callback(e2e: string, lostRate: number, kind: keyof BankLog['lost']): Promise<void> {
    if (this.down || this.random.next() < lostRate) {
      this.log.lost[kind] += 1;
      return;
    }
    const body = await this.o.control('callback', { endToEndIds: [e2e] });
    this.log.callbacks += 1;
    // 503 when the PSP cannot be asked back right now: a PSP posts again later (here: lost).
    await this.gateway.call(
      'bank.callback',
      'POST',
      `/partners/${this.o.ispb}/webhook/${this.o.webhookSecret}/pix`,
      {
        body,
        expect: [200, 503],
      },
    );
  }

  async charge(
    c: SoakClient,
    scenario: BankScenario,
    expirationInMinutes: number,
  ): Promise<BankTx | undefined> {
    const amountCents = c.amounts.pick(100, 50_000, Date.now());
    const res = await c.session.post(
      scenario,
      '/cash-in',
      {
        amount: amountCents / 100,
        externalReference: `soak-${this.run}-bank-${++this.sequence}`,
        expirationInMinutes,
        includeQrCodeImage: false,
        payer: { name: 'Maria da Silva', document: '12345678909' },
      },
      // The PSP is down: the charge cannot be registered, the integrator is told to retry.
      { expect: [201], allow: [{ status: 422, code: 'RULE_VIOLATION' }] },
    );
    if (res.status !== 201) {
      this.log.refusedCharges += 1;
      await sleep(2_000); // as an integrator told to retry later would
      return undefined;
    }
    const tx: BankTx = {
      clientId: c.clientId,
      scenario,
      transactionId: res.body.transactionId,
      internalCode: res.body.internalCode,
      amountCents,
    };
    this.log.transactions.push(tx);
    return tx;
  }

  async pay(tx: BankTx): Promise<string | undefined> {
    const e2e = `E60701190${new Date().toISOString().replace(/\D/g, '').slice(0, 12)}${(++this.sequence)
      .toString(36)
      .padStart(11, '0')}`.slice(0, 32);
    // The PSP reports the payer as Efí does; by default the charge's devedor, the declared payer.
    const pagador = tx.thirdParty ? { nome: 'Joao Terceiro', cpf: '11144477735' } : undefined;
    const pix = await this.o.control('pay', {
      txid: tx.transactionId,
      endToEndId: e2e,
      ...(pagador && { pagador }),
    });
    if (!pix) return undefined;
    tx.endToEndId = e2e;
    return e2e;
  }

  async refund(c: SoakClient, tx: BankTx, op: BankScenario): Promise<string | undefined> {
    const res = await c.session.post(
      op,
      `/cash-in/${tx.internalCode}/refund`,
      { reason: 'MERCHANT_ERROR' },
      // Not refundable any more: a bank return (MED) came first.
      { expect: [202], allow: [{ status: 422 }], signed: true },
    );
    return res.status === 202 ? (res.body.endToEndId as string) : undefined;
  }

  /** The network settles (or refuses) our devolution once it reached the PSP; then the callback. */
  async settleDevolution(e2e: string, id: string, ok: boolean): Promise<void> {
    for (let i = 0; i < 20; i++) {
      const pix = await this.o.control(`pix/${e2e}`);
      const d = (pix?.devolucoes ?? []).find((x: Json) => x.id === id);
      if (d) {
        if (d.status === 'EM_PROCESSAMENTO') await this.o.control('devolution', { endToEndId: e2e, id, ok });
        await this.callback(e2e, 0.3, 'devolutions');
        return;
      }
      await sleep(2_000); // not sent yet (the PSP was down): the gateway's poll sends it again
    }
  }

  /** Waits (up to a minute) until the gateway has the Cash-In PAID. */
  async paidHere(c: SoakClient, tx: BankTx): Promise<boolean> {
    for (let i = 0; i < 30; i++) {
      const view = await c.session.get('bank.return-refused-then-settled', `/cash-in/${tx.transactionId}`);
      if (view.body?.status === 'PAID') return true;
      await sleep(2_000);
    }
    return false;
  }

  /** Waits for the devolution the gateway asks for an unapplied receipt (the PSP may be down meanwhile). */
  async devolutionOf(e2e: string): Promise<{ id: string; status: string } | undefined> {
    for (let i = 0; i < 30; i++) {
      const [d] = (await this.o.control(`pix/${e2e}`))?.devolucoes ?? [];
      if (d) return d;
      await sleep(2_000);
    }
    return undefined;
  }

  async medReturn(e2e: string, amountCents: number, mayBePart = true): Promise<void> {
    const partial = mayBePart && this.random.next() < 0.3;
    const valor = partial ? Math.max(1, Math.round(amountCents / 3)) : amountCents;
    await this.o.control('return', {
      endToEndId: e2e,
      // Unique in its first 11 characters: the PSP builds the return's rtrId from them.
      id: `M${(++this.sequence).toString(36).padStart(10, '0')}${this.run}`,
      valor: brl(valor),
      natureza: this.random.next() < 0.5 ? 'MED_FRAUDE' : 'MED_OPERACIONAL',
    });
    await this.callback(e2e, 0.5, 'returns');
  }
}

type BankRunner = (d: BankDriver, c: SoakClient) => Promise<void>;

/**
 * A MED infraction against a paid Cash-In: the PSP blocks it, the gateway's sweep records it (a
 * hold), the client defends now and then, and the bank decides: ACEITA takes the money back by a
 * return, the others lift the block. While the gateway shows the dispute open, no money it blocks
 * may leave: available must stay at most balance − blocked, and a refund of it must be refused.
 */
async function disputed(d: BankDriver, c: SoakClient): Promise<void> {
  const tx = await paid(d, c, 'bank.dispute');
  if (!tx?.endToEndId) return;
  await sleep(d.random.int(1_000, 5_000));
  const part = d.random.next() < 0.3;
  const valor = part ? Math.max(1, Math.round(tx.amountCents / 2)) : tx.amountCents;
  const infraction = await d.o.control('infraction', { endToEndId: tx.endToEndId, valor: brl(valor) });
  d.log.disputes.opened += 1;
  const deadline = Date.now() + 150_000;
  let view: Json | undefined;
  while (Date.now() < deadline) {
    view = (await c.session.get('bank.dispute', `/cash-in/${tx.transactionId}`)).body;
    if (view.dispute) break;
    await sleep(3_000);
  }
  if (view?.dispute && ['OPEN', 'DEFENDED'].includes(view.dispute.status)) {
    d.log.disputes.recorded += 1;
    const balance = (await c.session.get('bank.dispute', '/account/balance')).body;
    const account = balance.partners
      .flatMap((p: Json) => p.accounts)
      .find((a: Json) => a.type === 'TRANSACTIONAL');
    if (cents(account.available) > cents(account.balance) - cents(account.blocked))
      d.log.disputes.breaches.push(
        `${tx.transactionId}: available ${account.available} with ${account.blocked} blocked`,
      );
    const refund = await c.session.post(
      'bank.dispute',
      `/cash-in/${tx.internalCode}/refund`,
      { reason: 'MERCHANT_ERROR' },
      { expect: [422], allow: [{ status: 202 }], signed: true },
    );
    if (refund.status === 202)
      d.log.disputes.breaches.push(`${tx.transactionId}: refunded under an open dispute`);
    if (d.random.next() < 0.5)
      await c.session.post(
        'bank.dispute',
        `/cash-in/${tx.internalCode}/dispute/defense`,
        { text: 'Deposit from the bettor own account' },
        { expect: [202], allow: [{ status: 422 }], signed: true },
      );
  }
  await sleep(d.random.int(1_000, 10_000));
  const roll = d.random.next();
  const status = roll < 0.5 ? 'ACEITA' : roll < 0.9 ? 'REJEITADA' : 'CANCELADA_EFI';
  await d.o.control('infraction-decide', { idInfracao: infraction.idInfracao, status });
  if (status === 'ACEITA') await d.medReturn(tx.endToEndId, valor, false);
}

/** A charge paid at once, its callback lost now and then: PAID, by callback or by the sweep. */
async function paid(d: BankDriver, c: SoakClient, scenario: BankScenario): Promise<BankTx | undefined> {
  const tx = await d.charge(c, scenario, 2);
  if (!tx) return undefined;
  const e2e = await d.pay(tx);
  if (e2e) await d.callback(e2e, 0.2, 'payments');
  return e2e ? tx : undefined;
}

const BANK_RUNNERS: Record<BankScenario, BankRunner> = {
  'bank.dispute': disputed,
  'bank.paid': async (d, c) => {
    await paid(d, c, 'bank.paid');
  },
  // Paid late in a one-minute window with no callback at all: found by the reconciliation sweep or
  // by the expiry, which must ask the PSP first (and wait out an outage rather than expire blind).
  'bank.paid-quietly': async (d, c) => {
    const tx = await d.charge(c, 'bank.paid-quietly', 1);
    if (!tx) return;
    await sleep(d.random.int(0, 50_000));
    if (await d.pay(tx)) d.log.lost.payments += 1;
  },
  // Someone else pays a bettor's deposit: held, never confirmed, returned through our devolution,
  // which the network settles after a while (or at the end, bank-books.ts).
  'bank.third-party': async (d, c) => {
    const tx = await d.charge(c, 'bank.third-party', 2);
    if (!tx) return;
    tx.thirdParty = true;
    const e2e = await d.pay(tx);
    if (!e2e) return;
    await d.callback(e2e, 0.2, 'payments');
    await sleep(d.random.int(1_000, 8_000));
    const pix = await d.o.control(`pix/${e2e}`);
    for (const dev of pix?.devolucoes ?? [])
      if (dev.status === 'EM_PROCESSAMENTO') await d.settleDevolution(e2e, dev.id, true);
  },
  'bank.unpaid': async (d, c) => {
    await d.charge(c, 'bank.unpaid', 1);
  },
  'bank.refund': async (d, c) => {
    const tx = await paid(d, c, 'bank.refund');
    if (!tx?.endToEndId) return;
    await sleep(d.random.int(500, 3_000)); // the payment's callback, or the sweep, books it first
    const id = await d.refund(c, tx, 'bank.refund');
    if (!id) return;
    await sleep(d.random.int(500, 5_000));
    await d.settleDevolution(tx.endToEndId, id, d.random.next() < 0.85);
  },
  // A bank return days later is one whose callback is lost half the time here: the re-reads of
  // paid Cash-Ins must find it.
  'bank.med': async (d, c) => {
    const tx = await paid(d, c, 'bank.med');
    if (!tx?.endToEndId) return;
    await sleep(d.random.int(1_000, 20_000));
    await d.medReturn(tx.endToEndId, tx.amountCents);
  },
  // A second payment of a paid charge is held and returned; the network refuses the devolution
  // (NAO_REALIZADO), then settles the same one (DEVOLVIDO) most of the time, callbacks lost now and
  // then: the gateway must end RETURNED exactly when the PSP made it, the payer repaid once.
  'bank.return-refused-then-settled': async (d, c) => {
    const tx = await paid(d, c, 'bank.return-refused-then-settled');
    if (!tx?.endToEndId) return;
    const first = tx.endToEndId;
    // The second payment comes once the first is booked (by its callback or the sweep): else the
    // gateway would rightly take the second as the charge's payment and hold the first.
    if (!(await d.paidHere(c, tx))) return;
    const second = await d.pay(tx);
    tx.endToEndId = first; // the Cash-In's payment stays the first one
    if (!second) return;
    const dup: BankDuplicate = { clientId: c.clientId, endToEndId: second, refused: false, settled: false };
    d.log.duplicates.push(dup);
    await d.callback(second, 0.3, 'payments');
    const devolution = await d.devolutionOf(second);
    if (!devolution) return;
    dup.devolutionId = devolution.id;
    if (devolution.status !== 'EM_PROCESSAMENTO') return;
    await d.o.control('devolution', { endToEndId: second, id: devolution.id, ok: false });
    dup.refused = true;
    await d.callback(second, 0.3, 'devolutions');
    if (d.random.next() < 0.2) return; // refused for good: the receipt stays FAILED, its money held
    await sleep(d.random.int(1_000, 20_000));
    await d.o.control('devolution', { endToEndId: second, id: devolution.id, ok: true });
    dup.settled = true;
    await d.callback(second, 0.5, 'devolutions');
  },
  // The bank's return overtakes the client's refund; the overtaken devolution then settles or not.
  'bank.med-over-refund': async (d, c) => {
    const tx = await paid(d, c, 'bank.med-over-refund');
    if (!tx?.endToEndId) return;
    await sleep(d.random.int(500, 3_000));
    const id = await d.refund(c, tx, 'bank.med-over-refund');
    await d.medReturn(tx.endToEndId, tx.amountCents);
    if (!id) return;
    await sleep(d.random.int(500, 5_000));
    await d.settleDevolution(tx.endToEndId, id, d.random.next() < 0.7);
  },
};

function pickScenario(random: Random): BankScenario {
  const entries = Object.entries(BANK_SCENARIOS) as [BankScenario, number][];
  let roll = random.next() * entries.reduce((sum, [, w]) => sum + w, 0);
  for (const [name, weight] of entries) {
    roll -= weight;
    if (roll < 0) return name;
  }
  return present(entries[0], 'a weighted entry')[0];
}

/** The PSP's one pending failure is moved to a path no request has: listing works again. */
const endListingOutage = (o: BankOptions) =>
  o.control('fail-next', { match: '/__never__', status: 503, name: 'ServicoIndisponivel', times: 1 });

/** Onboards the bank clients and runs their traffic, outages and archiving until `deadline`. */
export async function driveBankTraffic(
  gateway: Gateway,
  random: Random,
  o: BankOptions,
  durationMs: number,
  archiveEveryMs: number,
  trafficLog: TrafficLog,
  progress: (line: string) => void,
): Promise<BankRun> {
  const run = Math.floor(random.next() * 0xffffff).toString(36);
  const log: BankLog = {
    transactions: [],
    duplicates: [],
    ops: new Map(),
    outages: [],
    lost: { payments: 0, returns: 0, devolutions: 0 },
    callbacks: 0,
    refusedCharges: 0,
    disputes: { opened: 0, recorded: 0, breaches: [] },
  };
  const clients: SoakClient[] = [];
  for (let i = 0; i < (o.clients ?? 1); i++) {
    const created = await gateway.admin(
      'setup',
      'POST',
      '/admin/clients',
      { name: `Soak bank ${run} #${i + 1}`, partners: [o.ispb], payerPolicy: 'DECLARED_PAYER' },
      [201],
    );
    const client = created.body as Onboarded;
    clients.push({
      session: new ClientSession(gateway, client),
      clientId: client.clientId,
      partners: [o.ispb],
      accounts: client.accounts,
      statementStartDate: client.statementStartDate,
      amounts: new AmountPicker(random),
    });
  }
  const driver = new BankDriver(gateway, random, o, log, run);
  const outages = bankOutages(durationMs);
  progress(
    `bank leg: ${clients.length} client(s) at ${o.ispb}; PSP outages ${outages
      .map((x) => `${Math.round(x.ms / 1000)} s at ${Math.round(x.startMs / 1000)} s`)
      .join(', ')}`,
  );
  const startedAt = Date.now();
  const deadline = startedAt + durationMs;
  // The PSP's list of received Pix down from the start: every listing request answers 503.
  await o.control('fail-next', { match: 'inicio=', status: 503, name: 'ServicoIndisponivel', times: 1e9 });
  progress(`PSP cannot list received Pix for ${Math.round(listingOutageMs(durationMs) / 1000)} s`);
  const listingRun = (async () => {
    await sleep(listingOutageMs(durationMs));
    await endListingOutage(o);
    log.listingOutage = { from: startedAt, to: Date.now() };
    progress('PSP lists received Pix again');
  })();
  const outageRun = (async () => {
    for (const outage of outages) {
      await sleep(Math.max(0, startedAt + outage.startMs - Date.now()));
      progress(`PSP down for ${Math.round(outage.ms / 1000)} s`);
      await driver.outage(outage.ms);
      progress('PSP up again');
    }
  })();
  const stopArchiver =
    archiveEveryMs > 0 ? startArchiver(gateway, clients, trafficLog, archiveEveryMs) : async () => undefined;
  const worker = async () => {
    while (Date.now() < deadline) {
      const scenario = pickScenario(random);
      const stat = log.ops.get(scenario) ?? { ok: 0, failed: 0 };
      log.ops.set(scenario, stat);
      try {
        await BANK_RUNNERS[scenario](driver, random.pick(clients));
        stat.ok += 1;
      } catch (error) {
        stat.failed += 1;
        if (!(error instanceof UnexpectedResponse))
          gateway.tally.unexpected.push({
            op: scenario,
            method: '-',
            path: '-',
            status: -1,
            detail: String(error),
          });
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency ?? 4 }, worker));
  } finally {
    await outageRun.catch(() => undefined);
    await listingRun.catch(() => undefined);
    await endListingOutage(o);
    await o.control('outage', { match: '', ms: 0 });
    await stopArchiver();
  }
  return { clients, log };
}
