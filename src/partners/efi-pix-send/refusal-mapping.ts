/**
 * The one mapping from Efí Pix Send refusals (`{"nome", "mensagem"}` bodies) to our 18 failure
 * codes, and whether the same request may be sent again under the same `idEnvio`. Sources:
 * Efí's API documentation, "Envio e Pagamento Pix" (`PUT /v3/gn/pix/:idEnvio`, answers 400, 409,
 * 422, 500) and "Devoluções" (422 `saldo_insuficiente`), and the official SDK `sdk-node-apis-efi`
 * 2.0.1 (`PixSendBodySchema`, `PixSendResponseSchema`, `StatusPixSendSchema`), both quoted in
 * test/fixtures/efi-pix-send/README.md.
 */
interface Mapped {
  failureCode: string;
  retryable: boolean;
}

export const EFI_REFUSALS: Readonly<Record<string, Mapped & { source: string }>> = {
  // 400 "O documento desta conta tem bloqueios que impedem a emissão": our account at Efí is blocked.
  documento_bloqueado: { failureCode: 'PROVIDER_UNAVAILABLE', retryable: false, source: 'Pix Send 400' },
  // 400 "A chave informada não faz referência à conta Efí autenticada": our payer key is misconfigured.
  chave_invalida: { failureCode: 'PROVIDER_UNAVAILABLE', retryable: false, source: 'Pix Send 400' },
  // 400 "O cpf do favorecido é diferente do documento em posse da chave": docs/contract.md, Payee identity
  // and withdrawal limits.
  chave_nao_pertence_ao_documento: {
    failureCode: 'PAYEE_DOCUMENT_MISMATCH',
    retryable: false,
    source: 'Pix Send 400',
  },
  // 400 "Campo valor… deve ser maior que zero" / invalid document: we validated both, so a bug.
  valor_invalido: { failureCode: 'PROCESSING_ERROR', retryable: false, source: 'Pix Send 400' },
  // 422 "Pagamento negado por análises": Efí's fraud analysis refused it.
  pagamento_negado: { failureCode: 'FRAUD_SUSPECTED', retryable: false, source: 'Pix Send 422' },
  // 422 "O saldo em conta é insuficiente": our float at Efí, not the client's balance (held already).
  saldo_insuficiente: { failureCode: 'PROVIDER_UNAVAILABLE', retryable: false, source: 'Devoluções 422' },
  // 500 "Ocorreu um erro ao validar a chave": Efí's own failure; the same idEnvio may be sent again.
  erro_aplicacao: { failureCode: 'PROVIDER_UNAVAILABLE', retryable: true, source: 'Pix Send 500' },
};

/** `NAO_REALIZADO` (StatusPixSendSchema) carries no reason in the status query: the payee side refused. */
export const NOT_MADE: Mapped = { failureCode: 'PAYEE_BANK_REJECTED', retryable: false };

/**
 * 409 `id_envio_duplicado` ("O id de envio informado já foi utilizado em outro pagamento"): our
 * `idEnvio` is the Cash-Out's own id, so it can only be our earlier attempt of this very payment.
 */
export const DUPLICATE_ID = 'id_envio_duplicado';

export function mapEfiRefusal(status: number, body: unknown): Mapped {
  const nome = (body as { nome?: unknown } | null)?.nome;
  const known = typeof nome === 'string' ? EFI_REFUSALS[nome] : undefined;
  if (known) return { failureCode: known.failureCode, retryable: known.retryable };
  if (status === 429 || status >= 500) return { failureCode: 'PROVIDER_UNAVAILABLE', retryable: true };
  if (status === 403) return { failureCode: 'PROVIDER_UNAVAILABLE', retryable: false };
  return { failureCode: 'PROCESSING_ERROR', retryable: false };
}
