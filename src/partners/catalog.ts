import pixParticipants from './pix-participants.json';

/**
 * The settlement partners this deployment settles through: the one place that names them. Each
 * client holds a TRANSACTIONAL and a PROPRIETARY account at every partner it is onboarded with.
 * In staging every partner is backed by the sandbox simulator.
 */
export interface SettlementPartner {
  ispb: string;
  name: string;
  branch: string;
}

export const SETTLEMENT_PARTNERS: readonly SettlementPartner[] = [
  { ispb: '31880826', name: 'Banco Alfa Liquidações S.A.', branch: '0001' },
  { ispb: '42273459', name: 'Beta Pagamentos Instantâneos S.A.', branch: '0001' },
  { ispb: '56431109', name: 'Gama Banco Digital S.A.', branch: '0001' },
];

const byIspb = new Map(SETTLEMENT_PARTNERS.map((p) => [p.ispb, p]));

export function partnerByIspb(ispb: string): SettlementPartner | undefined {
  return byIspb.get(ispb);
}

/** Institutions that payers pay from and payees receive at, as the sandbox knows them. */
export const KNOWN_INSTITUTIONS: Readonly<Record<string, string>> = {
  '00000000': 'Banco do Brasil S.A.',
  '60701190': 'Itaú Unibanco S.A.',
  '60746948': 'Banco Bradesco S.A.',
  '00360305': 'Caixa Econômica Federal',
  '90400888': 'Banco Santander (Brasil) S.A.',
  '18236120': 'Nu Pagamentos S.A.',
  '10573521': 'Mercado Pago IP Ltda.',
  '22896431': 'PicPay Instituição de Pagamento S.A.',
  '31872495': 'Banco C6 S.A.',
  '00416968': 'Banco Inter S.A.',
};

/**
 * Every Pix participant's short name by ISPB, as the BCB lists them (pix-participants.json names
 * its source; `npm run pix:participants` refreshes it).
 */
export const PIX_PARTICIPANTS: Readonly<Record<string, string>> = pixParticipants.participants;

/** A declared partner's name, else the sandbox's, else the BCB's short name, else the bare ISPB. */
export function institutionName(ispb: string): string {
  return partnerByIspb(ispb)?.name ?? KNOWN_INSTITUTIONS[ispb] ?? PIX_PARTICIPANTS[ispb] ?? `ISPB ${ispb}`;
}
