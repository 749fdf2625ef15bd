// Replay of an NDJSON observation file through the same analyzer the worker uses (docs/contract.md, PIX
// health). Pure: the CLI (scripts/health-replay.ts) only wires files and streams to this.
import { Analyzer, type AnalyzerStats } from '../analyzer';
import type { AnalyzerConfig } from '../config';
import type { IncidentChange } from '../types';
import { parseObservation } from '../windows/observation';
import { WINDOW_MS } from '../windows/window';
import { toPublicEvidence, toPublicIncident } from './scope';

export interface ReplayOptions {
  config?: Partial<AnalyzerConfig>;
  /** Print `{change, incident, evidence}` instead of the bare incident object. */
  verbose?: boolean;
  /** One JSON line per incident change. */
  onOutput(line: string): void;
  /** One message per skipped line, plus the final summary. */
  onError(message: string): void;
}

export interface ReplaySummary {
  lines: number;
  invalid: number;
  changes: number;
  stats: AnalyzerStats;
}

export function formatChange(c: IncidentChange, verbose: boolean): string {
  const incident = toPublicIncident(c.incident);
  return JSON.stringify(
    verbose ? { change: c.change, incident, evidence: toPublicEvidence(c.evidence, false) } : incident,
  );
}

export class ReplaySession {
  readonly analyzer: Analyzer;
  private lineNo = 0;
  private invalid = 0;
  private changes = 0;
  private lastAtMs: number | null = null;

  constructor(private readonly opts: ReplayOptions) {
    this.analyzer = new Analyzer(opts.config);
  }

  /** Feed one line of the file (without its newline). Blank lines are ignored. */
  push(line: string): void {
    this.lineNo++;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reject('invalid JSON');
      return;
    }
    const parsed = parseObservation(value);
    if (!parsed.ok) {
      this.reject(parsed.error);
      return;
    }
    this.lastAtMs = this.lastAtMs === null ? parsed.atMs : Math.max(this.lastAtMs, parsed.atMs);
    this.emit(this.analyzer.ingest(parsed.value, parsed.atMs));
  }

  /**
   * End of input: close every complete window (the one holding the last observation is partial and stays
   * open, so a file that stops mid-window is not read as a drop), or up to `untilMs` when given.
   */
  end(untilMs?: number): ReplaySummary {
    if (untilMs !== undefined) this.emit(this.analyzer.advanceTo(untilMs));
    else if (this.lastAtMs !== null) {
      this.emit(this.analyzer.advanceTo(Math.floor(this.lastAtMs / WINDOW_MS) * WINDOW_MS));
    }
    const summary: ReplaySummary = {
      lines: this.lineNo,
      invalid: this.invalid,
      changes: this.changes,
      stats: this.analyzer.getStats(),
    };
    this.opts.onError(
      `health:replay: ${summary.lines} lines, ${summary.stats.ingested} observations, ${summary.invalid} invalid, ` +
        `${summary.stats.droppedLate} too late, ${summary.changes} incident changes`,
    );
    return summary;
  }

  private reject(reason: string): void {
    this.invalid++;
    this.opts.onError(`line ${this.lineNo}: ${reason}; skipped`);
  }

  private emit(changes: readonly IncidentChange[]): void {
    for (const c of changes) {
      this.changes++;
      this.opts.onOutput(formatChange(c, this.opts.verbose ?? false));
    }
  }
}
