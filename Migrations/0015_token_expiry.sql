-- Expired bearer tokens and reset links are swept at every login and reset request (`expires_at < now`): an index
-- on the expiry keeps that sweep from reading the whole table, however many sessions there are.
CREATE INDEX auth_tokens_expiry ON auth_tokens(expires_at);
CREATE INDEX password_resets_expiry ON password_resets(expires_at);
