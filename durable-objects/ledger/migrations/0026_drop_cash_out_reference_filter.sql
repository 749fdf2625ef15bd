-- A Cash-Out's externalReference is asked of the archive registry at every create
-- (archive/archive-reads.ts referencesArchived), so the object no longer keeps a filter of archived
-- Cash-Out references: its rows go. Data only; the Cash-In filter and the codes' filters stay.
DELETE FROM `archive_reference_filters` WHERE `kind` = 'cash-out';
