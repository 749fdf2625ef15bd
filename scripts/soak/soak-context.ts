/** What every soak scenario works with: the client it acts as, and the run it belongs to. */
import type { ClientSession, Gateway, OnboardedAccount } from './api';
import type { AmountPicker, Random } from './plan';
import type { TrafficLog } from './snapshot';

export interface SoakClient {
  session: ClientSession;
  clientId: string;
  partners: string[];
  accounts: OnboardedAccount[];
  statementStartDate: string;
  amounts: AmountPicker;
}

export interface TrafficContext {
  gateway: Gateway;
  random: Random;
  log: TrafficLog;
  /** A fresh externalReference (at most 50 characters). */
  reference(prefix: string): string;
}
