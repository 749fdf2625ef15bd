// Per-window counters and their exponentially weighted (EW) history. Cells (partner x institution and
// partner x client) are the only things touched per observation; every entity, complement and remainder
// is a sum or difference of cells, so all comparisons are made on consistent numbers.

/** Counters of one cell or aggregate for one operation. Plain fields: the hot path is ~1 increment. */
export class Counts {
  created = 0;
  settled = 0;
  failed = 0;
  expired = 0;
  returned = 0;
  latSum = 0;
  latSq = 0;
  latN = 0;

  /** One settlement, and its latency when it is evidence (undefined: it is not). */
  settle(latencyMs: number | undefined): void {
    this.settled++;
    if (latencyMs === undefined) return;
    this.latSum += latencyMs;
    this.latSq += latencyMs * latencyMs;
    this.latN++;
  }

  reset(): void {
    this.created = 0;
    this.settled = 0;
    this.failed = 0;
    this.expired = 0;
    this.returned = 0;
    this.latSum = 0;
    this.latSq = 0;
    this.latN = 0;
  }

  add(o: Counts): this {
    this.created += o.created;
    this.settled += o.settled;
    this.failed += o.failed;
    this.expired += o.expired;
    this.returned += o.returned;
    this.latSum += o.latSum;
    this.latSq += o.latSq;
    this.latN += o.latN;
    return this;
  }

  /** this - o, clamped at 0 (EW sums of a part can exceed the whole by rounding or unequal freezing). */
  sub(o: Counts): this {
    this.created = Math.max(0, this.created - o.created);
    this.settled = Math.max(0, this.settled - o.settled);
    this.failed = Math.max(0, this.failed - o.failed);
    this.expired = Math.max(0, this.expired - o.expired);
    this.returned = Math.max(0, this.returned - o.returned);
    this.latSum = Math.max(0, this.latSum - o.latSum);
    this.latSq = Math.max(0, this.latSq - o.latSq);
    this.latN = Math.max(0, this.latN - o.latN);
    return this;
  }

  /** EW update: this = decay * this + window. */
  decayAdd(o: Counts, decay: number): void {
    this.created = this.created * decay + o.created;
    this.settled = this.settled * decay + o.settled;
    this.failed = this.failed * decay + o.failed;
    this.expired = this.expired * decay + o.expired;
    this.returned = this.returned * decay + o.returned;
    this.latSum = this.latSum * decay + o.latSum;
    this.latSq = this.latSq * decay + o.latSq;
    this.latN = this.latN * decay + o.latN;
  }

  clone(): Counts {
    return new Counts().add(this);
  }

  toJSON(): number[] {
    return [
      this.created,
      this.settled,
      this.failed,
      this.expired,
      this.returned,
      this.latSum,
      this.latSq,
      this.latN,
    ];
  }

  static fromJSON(a: readonly number[]): Counts {
    const c = new Counts();
    c.created = a[0] ?? 0;
    c.settled = a[1] ?? 0;
    c.failed = a[2] ?? 0;
    c.expired = a[3] ?? 0;
    c.returned = a[4] ?? 0;
    c.latSum = a[5] ?? 0;
    c.latSq = a[6] ?? 0;
    c.latN = a[7] ?? 0;
    return c;
  }
}
