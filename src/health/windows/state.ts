// The analyzer's mutable state: entities (platform, partners, banks, clients) with their baselines, and
// cells (partner x bank, partner x client), the only counters touched per observation.
import { newSeasonal, type SeasonalState } from '../baselines/baseline';
import type { Operation } from '../types';
import { FAILURE_CODE_COUNT } from './code-layers';
import { Counts } from './counts';
import { newRing, type Ring } from './stats';
import type { SliceKind } from './views';

export type OpIndex = 0 | 1;
export const OPS: readonly [Operation, Operation] = ['CASH_IN', 'CASH_OUT'];

export interface EntityOp {
  /** Failures by code in the open window; EW history of the same and of outcomes. */
  codes: number[];
  codeEw: number[];
  codeEwN: number;
  created: SeasonalState;
  outcomes: SeasonalState;
  rErr: Ring;
  rLat: Ring;
  rExp: Ring;
  /** Consecutive anomalous windows (for the re-baseline escape hatch). */
  streak: number;
  /** Failures and outcomes of the previous window (two-window pooled failure test); absent in old snapshots. */
  prev?: [number, number];
  /** Created, its expectation, outcomes, their expectation, of the previous window (-1: no expectation). */
  prevCounts?: [number, number, number, number];
  /** CUSUM of the failure rate's log-likelihood ratio (evidence-rules.ts); absent in old snapshots. */
  cusum?: number;
  /** Consecutive windows up to the last closed one whose own llr was positive (a trend). */
  cusumUp?: number;
  /** Whether each of the last CUSUM_TREND_SPAN windows with outcomes favoured the fault (bits). */
  cusumHist?: number;
  /** The last closed window's failures were anomalous (evidence used once: pooledErrors, persistence.ts). */
  prevErrors?: boolean;
  /** Clients and banks: expected transactions (SILENCE_FAMILY) and windows of the current run without any. */
  silent?: [number, number, number?];
  /** Banks: EW outcomes of the bank and of the other banks (bank-share.ts). */
  share?: [number, number];
}

export interface Entity {
  kind: SliceKind;
  id: string;
  ops: [EntityOp, EntityOp];
  /** Transient, set while a window closes: may this entity's baseline learn from the window? */
  learn: [boolean, boolean];
}

export class Cell {
  acc: [Counts, Counts] = [new Counts(), new Counts()];
  ew: [Counts, Counts] = [new Counts(), new Counts()];
  constructor(readonly col: Entity | null) {}
}

export interface Partner {
  entity: Entity;
  inst: Map<string, Cell>;
  clients: Map<string, Cell>;
}

export function newEntityOp(): EntityOp {
  return {
    codes: new Array<number>(FAILURE_CODE_COUNT).fill(0),
    codeEw: new Array<number>(FAILURE_CODE_COUNT).fill(0),
    codeEwN: 0,
    created: newSeasonal(),
    outcomes: newSeasonal(),
    rErr: newRing(),
    rLat: newRing(),
    rExp: newRing(),
    streak: 0,
  };
}

export function newEntity(kind: SliceKind, id: string): Entity {
  return { kind, id, ops: [newEntityOp(), newEntityOp()], learn: [true, true] };
}

export interface HealthState {
  platform: Entity;
  partners: Map<string, Partner>;
  institutions: Map<string, Entity>;
  clients: Map<string, Entity>;
}

export function newState(): HealthState {
  return {
    platform: newEntity('platform', 'platform'),
    partners: new Map(),
    institutions: new Map(),
    clients: new Map(),
  };
}
