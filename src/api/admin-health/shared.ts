/** What the analyzer's operator operations share: its state as documented, and an example of it. */
import * as v from 'valibot';
import { UtcTimestamp } from '../../schemas/fields';
import { named } from '../../schemas/named';

export const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const AnalyzerState = named(
  'AnalyzerState',
  v.object({
    warm: v.pipe(v.boolean(), v.description('Enough history to judge: incidents can open.')),
    bootstrapping: v.pipe(
      v.boolean(),
      v.description('Learning from imported history; recent traffic waits.'),
    ),
    liveFrom: v.pipe(
      v.nullable(UtcTimestamp),
      v.description('While bootstrapping: observations from here on wait until the history has arrived.'),
    ),
    parked: Count,
    accepted: v.pipe(
      Count,
      v.description('Observations taken off the queue since the analyzer was created (each id once).'),
    ),
    ingested: v.pipe(
      Count,
      v.description('Counted by the current engine (restarts at zero when a bootstrap begins).'),
    ),
    late: Count,
    droppedLate: Count,
    duplicates: Count,
    rejected: Count,
    windowsClosed: Count,
  }),
);

export const STATE = {
  warm: true,
  bootstrapping: false,
  liveFrom: null,
  parked: 0,
  accepted: 1_204_346,
  ingested: 1_204_331,
  late: 12,
  droppedLate: 0,
  duplicates: 3,
  rejected: 0,
  windowsClosed: 1_152,
};
