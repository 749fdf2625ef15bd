import journal from './meta/_journal.json';
import m0000 from './0000_init.sql';
import m0001 from './0001_cash_outs.sql';
import m0002 from './0002_webhook_deliveries.sql';
import m0003 from './0003_limit_totals.sql';
import m0004 from './0004_webhook_deliveries_finished_idx.sql';
import m0005 from './0005_cash_in_refund_failure.sql';
import m0006 from './0006_archive.sql';
import m0007 from './0007_archive_manifest.sql';
import m0008 from './0008_cash_out_exec.sql';
import m0009 from './0009_archive_deliveries.sql';
import m0010 from './0010_deliveries_aggregate_prefix.sql';
import m0011 from './0011_archive_delivery_index.sql';
import m0012 from './0012_lean_deliveries.sql';
import m0013 from './0013_cash_in_psp_location.sql';
import m0014 from './0014_unapplied_receipts.sql';
import m0015 from './0015_cash_out_batches.sql';
import m0016 from './0016_cash_in_refund_request_id.sql';
import m0017 from './0017_audit_outbox.sql';
import m0018 from './0018_recurrences.sql';
import m0019 from './0019_recurrence_charges.sql';
import m0020 from './0020_cash_in_paid_by.sql';
import m0021 from './0021_cash_in_disputes.sql';
import m0022 from './0022_archived_disputes.sql';
import m0023 from './0023_cash_in_recurrence.sql';
import m0024 from './0024_archive_reference_filters.sql';
import m0025 from './0025_internal_code_counter.sql';
import m0026 from './0026_drop_cash_out_reference_filter.sql';
import m0027 from './0027_archive_reference_pending.sql';
import m0028 from './0028_given_up_deliveries.sql';
import m0029 from './0029_archive_runs.sql';
import m0030 from './0030_webhook_parking.sql';

  export default {
    journal,
    migrations: {
      m0000,
m0001,
m0002,
m0003,
m0004,
m0005,
m0006,
m0007,
m0008,
m0009,
m0010,
m0011,
m0012,
m0013,
m0014,
m0015,
m0016,
m0017,
m0018,
m0019,
m0020,
m0021,
m0022,
m0023,
m0024,
m0025,
m0026,
m0027,
m0028,
m0029,
m0030
    }
  }
  