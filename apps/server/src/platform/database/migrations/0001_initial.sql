-- Initial schema. Timestamps are timestamptz; ids are UUIDs so no id reveals another tenant's volume.

CREATE TABLE organizations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'client')),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE RESTRICT,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));
CREATE INDEX accounts_organization_idx ON accounts (organization_id);

CREATE TABLE auth_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX auth_tokens_account_idx ON auth_tokens (account_id);

-- Failed attempts (logins, enrolments) counted per key over a sliding window, shared by all
-- server processes.
CREATE TABLE rate_limit_hits (
  key text NOT NULL,
  hit_at timestamptz NOT NULL
);
CREATE INDEX rate_limit_hits_key_idx ON rate_limit_hits (key, hit_at);

CREATE TABLE vr_users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE RESTRICT,
  name text NOT NULL,
  notes text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX vr_users_organization_idx ON vr_users (organization_id, name);

CREATE TABLE devices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE RESTRICT,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('oculus', 'pico', 'quest', 'other')),
  movement_type text NOT NULL DEFAULT 'slide' CHECK (movement_type IN ('slide', 'teleport')),
  token_hash text UNIQUE,
  last_seen_at timestamptz,
  battery_percent integer CHECK (battery_percent BETWEEN 0 AND 100),
  app_version text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_organization_idx ON devices (organization_id);

CREATE TABLE enrollment_codes (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  code text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE scenarios (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE modules (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  scenario_id uuid NOT NULL REFERENCES scenarios (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  order_index integer NOT NULL DEFAULT 0 CHECK (order_index >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX modules_scenario_idx ON modules (scenario_id, order_index);

CREATE TABLE levels (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  module_id uuid NOT NULL REFERENCES modules (id) ON DELETE CASCADE,
  name text NOT NULL,
  level_number integer NOT NULL CHECK (level_number >= 1),
  description text NOT NULL DEFAULT '',
  max_tasks integer NOT NULL DEFAULT 3 CHECK (max_tasks >= 1),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX levels_module_idx ON levels (module_id, level_number);

CREATE TABLE level_options (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  level_id uuid NOT NULL REFERENCES levels (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  order_index integer NOT NULL DEFAULT 0 CHECK (order_index >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX level_options_level_idx ON level_options (level_id, order_index);

CREATE TABLE scenario_access (
  scenario_id uuid NOT NULL REFERENCES scenarios (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  granted_at timestamptz NOT NULL,
  granted_by text,
  expires_at timestamptz,
  PRIMARY KEY (scenario_id, organization_id)
);
CREATE INDEX scenario_access_organization_idx ON scenario_access (organization_id);

-- A session keeps the names of what it ran, so history survives later edits and deletions.
CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE RESTRICT,
  device_id uuid REFERENCES devices (id) ON DELETE SET NULL,
  vr_user_id uuid REFERENCES vr_users (id) ON DELETE SET NULL,
  scenario_id uuid REFERENCES scenarios (id) ON DELETE SET NULL,
  module_id uuid REFERENCES modules (id) ON DELETE SET NULL,
  level_id uuid REFERENCES levels (id) ON DELETE SET NULL,
  started_by_account_id uuid REFERENCES accounts (id) ON DELETE SET NULL,
  device_name text NOT NULL,
  device_type text NOT NULL,
  vr_user_name text NOT NULL,
  scenario_name text NOT NULL,
  module_name text NOT NULL,
  level_name text NOT NULL,
  level_number integer NOT NULL,
  max_tasks integer NOT NULL,
  selected_options jsonb NOT NULL DEFAULT '[]'::jsonb,
  started_by_email text,
  status text NOT NULL DEFAULT 'active'
    CHECK (status IN ('active', 'completed', 'cancelled', 'disconnected', 'timeout')),
  completed_tasks integer NOT NULL DEFAULT 0 CHECK (completed_tasks >= 0),
  success boolean,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  duration_seconds integer
);
-- At most one active session per device, whatever the number of concurrent starts.
CREATE UNIQUE INDEX sessions_one_active_per_device ON sessions (device_id) WHERE status = 'active';
CREATE INDEX sessions_organization_started_idx ON sessions (organization_id, started_at DESC);
CREATE INDEX sessions_vr_user_idx ON sessions (vr_user_id, started_at DESC);
CREATE INDEX sessions_started_idx ON sessions (started_at);
CREATE INDEX sessions_active_idx ON sessions (status) WHERE status = 'active';
