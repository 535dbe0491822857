-- What a VTN sync could not use, kept for the energy hub screens. refused_events: a JSON array
-- of {"program", "id", "reason"} for each programme or event the VTN listed that the portal
-- could not read at the last sync (the others were applied). unsupported_reports: the report
-- payload types a programme's events ask for that the portal cannot produce, comma-separated.
-- webhook: the connection's webhook subscriptions (JSON: callback, sealed token, subscription
-- id per programme, mode webhook/polling and why).
ALTER TABLE dr_vtns ADD COLUMN refused_events TEXT NOT NULL DEFAULT '[]';
ALTER TABLE dr_programs ADD COLUMN unsupported_reports TEXT NOT NULL DEFAULT '';
ALTER TABLE dr_vtns ADD COLUMN webhook TEXT NOT NULL DEFAULT '{}';
