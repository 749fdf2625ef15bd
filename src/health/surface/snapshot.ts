// The analyzer state as plain JSON (Durable Object storage) and back.

import { present } from '../../domain/present';
import { Counts } from '../windows/counts';
import { Cell, type Entity, type EntityOp, type HealthState, newState, type Partner } from '../windows/state';
import type { SliceKind } from '../windows/views';

interface EntityJSON {
  kind: SliceKind;
  id: string;
  ops: [EntityOp, EntityOp];
}

interface CellJSON {
  acc: [number[], number[]];
  ew: [number[], number[]];
}

interface PartnerJSON {
  entity: EntityJSON;
  inst: [string, CellJSON][];
  clients: [string, CellJSON][];
}

export interface StateJSON {
  platform: unknown;
  partners: unknown[];
  institutions: unknown[];
  clients: unknown[];
}

export function stateToJSON(state: HealthState): StateJSON {
  const entity = (e: Entity): EntityJSON => ({ kind: e.kind, id: e.id, ops: e.ops });
  const cells = (m: Map<string, Cell>): [string, CellJSON][] =>
    [...m].map(([id, c]) => [
      id,
      { acc: [c.acc[0].toJSON(), c.acc[1].toJSON()], ew: [c.ew[0].toJSON(), c.ew[1].toJSON()] },
    ]);
  return {
    platform: entity(state.platform),
    partners: [...state.partners.values()].map((p) => ({
      entity: entity(p.entity),
      inst: cells(p.inst),
      clients: cells(p.clients),
    })),
    institutions: [...state.institutions.values()].map(entity),
    clients: [...state.clients.values()].map(entity),
  };
}

/** Rebuild the state from `stateToJSON` output (already a private copy: it is adopted, not cloned). */
export function stateFromJSON(json: StateJSON): HealthState {
  const state = newState();
  const entity = (j: EntityJSON): Entity => ({ kind: j.kind, id: j.id, ops: j.ops, learn: [true, true] });
  state.platform = entity(json.platform as EntityJSON);
  for (const e of json.institutions as EntityJSON[]) state.institutions.set(e.id, entity(e));
  for (const e of json.clients as EntityJSON[]) state.clients.set(e.id, entity(e));
  const cell = (col: Entity | null, j: CellJSON): Cell => {
    const c = new Cell(col);
    c.acc = [Counts.fromJSON(j.acc[0]), Counts.fromJSON(j.acc[1])];
    c.ew = [Counts.fromJSON(j.ew[0]), Counts.fromJSON(j.ew[1])];
    return c;
  };
  for (const pj of json.partners as PartnerJSON[]) {
    const p: Partner = { entity: entity(pj.entity), inst: new Map(), clients: new Map() };
    for (const [id, cj] of pj.inst)
      p.inst.set(id, cell(id === '' ? null : present(state.institutions.get(id), `institution ${id}`), cj));
    for (const [id, cj] of pj.clients)
      p.clients.set(id, cell(present(state.clients.get(id), `client ${id}`), cj));
    state.partners.set(p.entity.id, p);
  }
  return state;
}
