-- "Whose access may have changed", told to every server process (NOTIFY vrtc_access), so each
-- ends the live streams (GET /v1/events) that no longer authenticate as the identity that opened
-- them. Triggers, not calls in the services: no statement can end a sign-in, or change what an
-- account may read, without telling, and the notification is sent exactly when its transaction
-- commits (never on rollback). PostgreSQL folds repeats of one payload within a transaction, so
-- deactivating an organisation of many sign-ins sends one notification per account.
--
-- Payloads: 'account:<id>' (a token of it ended; its password, role, organisation or active flag
-- changed; it was deleted) and 'organization:<id>' (deactivated, reactivated or deleted).
CREATE FUNCTION vrtc_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'auth_tokens' THEN
    PERFORM pg_notify('vrtc_access', 'account:' || OLD.account_id);
  ELSIF TG_TABLE_NAME = 'accounts' THEN
    PERFORM pg_notify('vrtc_access', 'account:' || OLD.id);
  ELSE
    PERFORM pg_notify('vrtc_access', 'organization:' || OLD.id);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER auth_tokens_access_changed AFTER DELETE ON auth_tokens
  FOR EACH ROW EXECUTE FUNCTION vrtc_access_changed();

CREATE TRIGGER accounts_access_changed
  AFTER UPDATE OF password_hash, role, organization_id, active ON accounts
  FOR EACH ROW
  WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash
    OR OLD.role IS DISTINCT FROM NEW.role
    OR OLD.organization_id IS DISTINCT FROM NEW.organization_id
    OR OLD.active IS DISTINCT FROM NEW.active)
  EXECUTE FUNCTION vrtc_access_changed();

CREATE TRIGGER accounts_deleted_access_changed AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION vrtc_access_changed();

CREATE TRIGGER organizations_access_changed AFTER UPDATE OF active ON organizations
  FOR EACH ROW WHEN (OLD.active IS DISTINCT FROM NEW.active)
  EXECUTE FUNCTION vrtc_access_changed();

CREATE TRIGGER organizations_deleted_access_changed AFTER DELETE ON organizations
  FOR EACH ROW EXECUTE FUNCTION vrtc_access_changed();
