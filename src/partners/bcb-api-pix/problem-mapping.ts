/**
 * The one mapping from API Pix problem answers (RFC 7807, `type` under
 * https://pix.bcb.gov.br/api/v2/error/) to our failure codes, and whether the same request may be
 * sent again under the same id. Source of every row: bacen/pix-api openapi.yaml 2.9.0,
 * components.responses and the per-operation problem examples (test/fixtures/bcb-pix-api).
 */
const ERROR_BASE = 'https://pix.bcb.gov.br/api/v2/error/';

interface Mapped {
  failureCode: string;
  retryable: boolean;
}

const BY_TYPE: Readonly<Record<string, Mapped>> = {
  // responses.ServicoIndisponivel (503): the PSP is down; the id-idempotent call may be repeated.
  ServicoIndisponivel: { failureCode: 'PROVIDER_UNAVAILABLE', retryable: true },
  // responses.AcessoNegado (403): our credentials/scope are wrong — an operator problem, not the payer's.
  AcessoNegado: { failureCode: 'PROVIDER_UNAVAILABLE', retryable: false },
  // responses.NaoEncontrado (404): the charge or Pix does not exist at the PSP.
  NaoEncontrado: { failureCode: 'PROCESSING_ERROR', retryable: false },
  // PUT /cob/{txid} 400 examples: invalid charge (e.g. txid reused with other data).
  CobOperacaoInvalida: { failureCode: 'PROCESSING_ERROR', retryable: false },
  // PUT /pix/{e2eid}/devolucao/{id} 400 examples: amount above what remains, window closed.
  PixDevolucaoInvalida: { failureCode: 'PAYEE_BANK_REJECTED', retryable: false },
  // PUT /webhook/{chave} 400 examples: URL refused by the PSP.
  WebhookOperacaoInvalida: { failureCode: 'PROCESSING_ERROR', retryable: false },
};

/** Maps an HTTP status and problem body; unknown types fall back on the status class. */
export function mapProblem(status: number, body: unknown): Mapped {
  const type = typeof (body as { type?: unknown })?.type === 'string' ? (body as { type: string }).type : '';
  const known = type.startsWith(ERROR_BASE) ? BY_TYPE[type.slice(ERROR_BASE.length)] : undefined;
  if (known) return known;
  if (status === 429 || status >= 500) return { failureCode: 'PROVIDER_UNAVAILABLE', retryable: true };
  return { failureCode: 'PROCESSING_ERROR', retryable: false };
}
