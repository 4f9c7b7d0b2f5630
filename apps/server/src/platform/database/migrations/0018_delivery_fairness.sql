-- Fair delivery (issue 40, decision 026): a receiver that keeps timing out is slowed down for
-- itself alone. consecutive_timeouts counts its attempts that ended by the timeout since its last
-- answer; from the third on, its deliveries are not claimed before slowed_until, and then one at a
-- time.
ALTER TABLE integrations
  ADD COLUMN consecutive_timeouts integer NOT NULL DEFAULT 0,
  ADD COLUMN slowed_until timestamptz;
