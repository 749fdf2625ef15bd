/**
 * What the Cash-In and Cash-Out response shapes share (src/api/cash-in/shared.ts,
 * src/api/cash-out/shared.ts and their list and summary operations): the cursor page and the summary (the identity fields: src/schemas/fields.ts).
 */
import * as v from 'valibot';
import { BrtTimestamp, Count, Cursor, Money } from '../schemas/fields';
import { named } from '../schemas/named';

export const page = <T extends v.GenericSchema>(item: T) =>
  v.object({
    items: v.array(item),
    nextCursor: v.optional(v.pipe(Cursor, v.description('Absent on the last page.'))),
    previousCursor: v.optional(v.pipe(Cursor, v.description('Absent on the first page.'))),
  });

const SummaryBucket = named('SummaryBucket', v.object({ count: Count, amount: Money }));

export const summary = <K extends string>(keys: readonly K[], note: string) =>
  v.object({
    from: BrtTimestamp,
    to: BrtTimestamp,
    currency: v.literal('BRL'),
    totals: v.pipe(
      v.object(
        Object.fromEntries(keys.map((k) => [k, v.optional(SummaryBucket)])) as Record<
          K,
          v.OptionalSchema<typeof SummaryBucket, undefined>
        >,
      ),
      v.description(`Status bucket → {count, amount}; a key appears only when it has transactions. ${note}`),
    ),
    settlement: v.pipe(
      v.array(v.object({ ispb: v.string(), bank: v.string(), count: Count, amount: Money })),
      v.description('Per settlement bank, ordered by amount descending.'),
    ),
  });
