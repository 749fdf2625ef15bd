/** A client's withdrawal limits (decisions §3), in centavos; an absent limit does not apply. */
export interface ClientLimits {
  perTransaction?: number;
  daily?: number;
  monthly?: number;
  perPayeeDaily?: number;
}
