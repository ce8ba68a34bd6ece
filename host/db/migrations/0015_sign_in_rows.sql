-- 0015_sign_in_rows (issue 18): sign-in challenge rows holding no code and no lock are
-- removed some time after their last change (host/auth/sign-in.ts); this index finds them.
CREATE INDEX email_sign_in_updated ON email_sign_in (updated_at);
