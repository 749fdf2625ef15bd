/**
 * A client's withdrawal limits (docs/contract.md, Payee identity and withdrawal limits), in centavos; an
 * absent limit does not apply.
 */
export interface ClientLimits {
  perTransaction?: number;
  daily?: number;
  monthly?: number;
  perPayeeDaily?: number;
}
