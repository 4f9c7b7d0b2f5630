-- Results out (docs/integrations.md, decision 026): an organisation's webhooks and learning record
-- stores, the transactional outbox of its events, and one delivery per event and integration.

CREATE TABLE integrations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('webhook', 'xapi')),
  url text NOT NULL,
  events text[] NOT NULL,
  -- webhook: the signing secret (whsec_…), and the one before the last rotation until it expires.
  -- The dispatcher must sign with them, so they are kept as they are, like an SMTP password.
  secret text,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- xapi: the LRS's Basic auth credentials.
  xapi_key text,
  xapi_secret text,
  include_names boolean NOT NULL DEFAULT false,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text CHECK (disabled_reason IN ('by_user', 'gone', 'failing')),
  disabled_at timestamptz,
  -- The first failed attempt since the last success: three days of failures disable it.
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX integrations_organization_idx ON integrations (organization_id, created_at);

-- The outbox: one row per event, written in the transaction of the change it tells of.
-- organization_id is not a foreign key: the event outlives what it tells of for its 30 days.
CREATE TABLE outbox_events (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX outbox_events_created_idx ON outbox_events (created_at);

-- One event for one integration: its attempts so far and the last one's outcome.
CREATE TABLE deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  integration_id uuid NOT NULL REFERENCES integrations (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES outbox_events (id) ON DELETE CASCADE,
  event_type text NOT NULL,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'delivered', 'failed', 'abandoned')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_duration_ms integer,
  last_response text,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  CONSTRAINT deliveries_integration_event_key UNIQUE (integration_id, event_id)
);
-- The dispatcher's claim: due pending deliveries, oldest due first.
CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_at) WHERE status = 'pending';
-- The delivery log, newest first per integration.
CREATE INDEX deliveries_log_idx ON deliveries (integration_id, created_at DESC, id DESC);
CREATE INDEX deliveries_event_idx ON deliveries (event_id);

-- license.expiring is sent once per licence end: the ends already told of.
CREATE TABLE license_expiry_notices (
  scenario_id uuid NOT NULL,
  organization_id uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  sent_at timestamptz NOT NULL,
  PRIMARY KEY (scenario_id, organization_id, expires_at)
);
