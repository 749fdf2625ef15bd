// Portuguese diagnosis text (the incident's `summary`). It names only the origin (a partner, a bank, the
// platform, the PIX network); a MERCHANT summary speaks of "sua operação" and never names any client, so the
// text is safe for every reader of the incident. Numbers are percentages and ratios, never volumes.
import type { Signal } from '../attribution/diagnosis';
import type { EvidenceBasis } from '../scoring/evaluate';
import type { IncidentStatus, Operation, OriginClass, OriginType, Severity } from '../types';
import { hhmmBrt } from '../windows/window';

const OPERATION_TEXT: Record<Operation, string> = {
  CASH_IN: 'recebimentos PIX (Cash-In)',
  CASH_OUT: 'pagamentos PIX enviados (Cash-Out)',
};

const SEVERITY_TEXT: Record<Severity, string> = {
  DEGRADED: 'Degradação',
  SEVERELY_DEGRADED: 'Degradação severa',
  UNAVAILABLE: 'Indisponibilidade',
};

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

function rate(x: number): string {
  return `${(Math.round(x * 1000) / 10).toString().replace('.', ',')}%`;
}

export function signalText(signal: Signal | null, operation: Operation): string {
  if (!signal) return 'métricas fora do padrão esperado';
  switch (signal.family) {
    case 'created':
      return `volume de novas transações ${pct(signal.impact)} abaixo do esperado`;
    case 'outcomes':
      return operation === 'CASH_IN'
        ? `liquidações ${pct(signal.impact)} abaixo do esperado`
        : `transferências concluídas (liquidadas ou recusadas) ${pct(signal.impact)} abaixo do esperado`;
    case 'errors': {
      const code = signal.code ? `, principalmente ${signal.code}` : '';
      return `falhas em ${rate(signal.observed)} das transações (normal: ${rate(signal.expected)})${code}`;
    }
    case 'latency':
      return `tempo de liquidação ${(Math.round(signal.impact * 10) / 10).toString().replace('.', ',')} vezes o normal`;
    case 'expiry':
      return `expiração de cobranças em ${rate(signal.observed)} (normal: ${rate(signal.expected)})`;
  }
}

export interface SummaryInput {
  originType: OriginType;
  originId: string;
  /** The origin's registered name, when the engine was given one (never a client's name). */
  knownName: string | null;
  operation: Operation;
  status: IncidentStatus;
  severity: Severity;
  originClass: OriginClass;
  startedAtMs: number;
  recoveredAtMs: number | null;
  resolvedAtMs: number | null;
  affectedPartners: number;
  cohortNames: string[];
  signal: Signal | null;
  /** The failure trend (CUSUM) that confirmed the incident, if it took one. */
  trend?: EvidenceBasis | null;
}

/**
 * Why a trend is enough (the failure CUSUM, evidence-rules.ts): no single window proves the fault, the
 * rise sustained window after window does.
 */
export function trendText(windows: number): string {
  return (
    ` Detectado pela tendência: a taxa de falhas subiu em ${windows} das últimas janelas de 5 minutos ` +
    `(${windows * 5} minutos); nenhuma janela sozinha bastava como prova, mas a alta sustentada sim.`
  );
}

/** Why a group of small banks is blamed together (the pooled cohort test, cohort.ts). */
export function pooledCohortText(windows: number): string {
  return (
    `, somando essas instituições nos últimos ${windows * 5} minutos. Cada uma tem volume pequeno demais ` +
    'para ser avaliada sozinha; juntas, a queda é clara, enquanto as demais instituições e os parceiros ' +
    'bancários operam normalmente'
  );
}

/** Why a group of small banks is blamed together (the cohort CUSUM scan, cohort-scan.ts). */
export function scanCohortText(windows: number): string {
  return (
    `, pois essas instituições começaram a perder pagamentos juntas há ${windows * 5} minutos. Cada uma tem ` +
    'volume pequeno demais para ser avaliada sozinha; a perda acumulada, somada entre elas, passa do limite ' +
    'calibrado para o número de instituições observadas, enquanto as demais instituições e os parceiros ' +
    'bancários operam normalmente'
  );
}

/** Why a merchant, a bank or a partner is blamed for silence (SILENCE_MIN_EXPECTED, evidence-rules.ts). */
export function silenceText(windows: number, what = 'nenhuma transação nova'): string {
  return (
    `; ${what} em ${windows} janelas seguidas de 5 minutos (${windows * 5} minutos). Nenhuma janela ` +
    'sozinha basta para concluir; somadas, o volume esperado não deixaria passar tanto tempo sem nenhuma'
  );
}

/** The silence clause when the headline is one (SILENCE_FAMILY: nothing at all over a pooled run). */
function silenceClause(s: SummaryInput, family: 'created' | 'outcomes', what?: string): string {
  const b = s.signal?.basis;
  const silent = b?.kind === 'pooled' && s.signal?.family === family && s.signal.impact >= 1;
  return silent ? silenceText(b.windows, what) : '';
}

function partnersText(n: number): string {
  return n === 1 ? 'em 1 parceiro bancário' : `em ${n} parceiros bancários`;
}

export function buildSummary(s: SummaryInput): string {
  const op = OPERATION_TEXT[s.operation];
  const sev = SEVERITY_TEXT[s.severity];
  const since = `desde ${hhmmBrt(s.startedAtMs)} BRT`;
  const sig = signalText(s.signal, s.operation);
  const who = s.knownName ? `${s.knownName} (ISPB ${s.originId})` : `de ISPB ${s.originId}`;
  const basis = s.signal?.basis ?? null;
  const trendBasis = basis?.kind === 'trend' ? basis : (s.trend ?? null);
  const trend = trendBasis ? trendText(trendBasis.windows) : '';
  let text: string;
  switch (s.originType) {
    case 'BANKING_PARTNER':
      text =
        `${sev} no parceiro bancário ${who} afeta ${op} ${since}: ${sig}` +
        `${silenceClause(s, 'outcomes', 'nenhuma liquidação')}.${trend} ` +
        'O problema aparece nas transações desse parceiro com várias instituições; os demais parceiros operam ' +
        'normalmente, por isso a origem apontada é esse parceiro, e não a ConnectPSP nem o sistema PIX.';
      break;
    case 'PAYER_INSTITUTION':
      text =
        s.originClass === 'INFERRED' && s.operation === 'CASH_IN'
          ? `A instituição ${who} deixou de liquidar ${op} ${since}: ${sig}` +
            silenceClause(s, 'outcomes', 'nenhuma liquidação') +
            ', ' +
            `${partnersText(s.affectedPartners)}. Os pagadores dessa instituição não estão conseguindo pagar; ` +
            'a falha está na instituição, fora da ConnectPSP.'
          : `${sev} na instituição ${who} afeta ${op} ${since}: ${sig}, ` +
            `${partnersText(s.affectedPartners)}. A falha está na instituição, fora da ConnectPSP.`;
      break;
    case 'PAYER_COHORT':
      text =
        `${sev} simultânea em um grupo de ${s.cohortNames.length} instituições (${s.cohortNames.join(', ')}) ` +
        `afeta ${op} ${since}: ${sig}` +
        (basis?.kind === 'pooled'
          ? `${pooledCohortText(basis.windows)}. `
          : basis?.kind === 'scan'
            ? `${scanCohortText(basis.windows)}. `
            : '. As demais instituições operam normalmente e nenhum parceiro bancário explica a falha. ') +
        'Por isso a origem apontada é esse grupo de instituições, e não um parceiro bancário nem a ConnectPSP: ' +
        'a falha está fora da ConnectPSP.';
      break;
    case 'MERCHANT':
      text =
        `${sev} na sua operação de ${op} ${since}: ${sig}` +
        silenceClause(s, 'created') +
        ', enquanto o restante da plataforma opera normalmente. Verifique sua integração e o fluxo dos seus usuários.';
      break;
    case 'CONNECTPSP':
      text = `${sev} na plataforma ConnectPSP afeta ${op} ${since}: ${sig}, em todos os parceiros bancários.${trend}`;
      break;
    case 'PIX_SYSTEMIC':
      text =
        `${sev} generalizada no sistema PIX afeta ${op} ${since}: ${sig}, em todos os parceiros bancários e ` +
        `instituições.${trend} A causa está fora da ConnectPSP.`;
      break;
  }
  if (s.status === 'WORSENING') text += ' A situação está piorando.';
  if (s.status === 'RECOVERING' && s.recoveredAtMs !== null) {
    text += ` As métricas voltaram ao normal às ${hhmmBrt(s.recoveredAtMs)} BRT; em observação.`;
  }
  if (s.status === 'RESOLVED' && s.resolvedAtMs !== null)
    text += ` Resolvido às ${hhmmBrt(s.resolvedAtMs)} BRT.`;
  return text;
}
