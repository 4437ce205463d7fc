-- Content operators write and everyone reads: banners, notices (public and per user, with
-- read state) and help articles by topic. Titles are one line, bodies Markdown (rendered to
-- safe HTML by the server), each in zh-CN and en-US (docs/decisions/014-content-and-markdown.md).
CREATE TABLE banners (
  id bigserial PRIMARY KEY,
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 100),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 100),
  body_zh text NOT NULL DEFAULT '' CHECK (length(body_zh) <= 20000),
  body_en text NOT NULL DEFAULT '' CHECK (length(body_en) <= 20000),
  -- /uploads/<sha256>.<ext> (a file under DATA_DIR/uploads) or an https URL.
  image_url text NOT NULL CHECK (length(image_url) BETWEEN 1 AND 500 AND (image_url LIKE '/uploads/%' OR image_url LIKE 'https://%')),
  -- detail: its own /banner/detail page; ranking: /banner/ranking?id=<link_target> (an
  -- activity id); route: link_target is an in-app path.
  link_type text NOT NULL CHECK (link_type IN ('detail', 'ranking', 'route')),
  link_target text CHECK (length(link_target) <= 200),
  sort_order integer NOT NULL DEFAULT 0 CHECK (sort_order BETWEEN 0 AND 1000000),
  starts_at timestamptz NOT NULL DEFAULT now(),
  ends_at timestamptz,
  retired_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (ends_at IS NULL OR ends_at > starts_at),
  CHECK (
    (link_type = 'detail' AND link_target IS NULL)
    OR (link_type = 'ranking' AND link_target ~ '^[1-9][0-9]{0,15}$')
    OR (link_type = 'route' AND link_target ~ '^/([^/\\]|$)')
  )
);
--> statement-breakpoint
CREATE INDEX banners_live_idx ON banners (sort_order, id) WHERE retired_at IS NULL;
--> statement-breakpoint
-- user_id null: a public notice for everyone; else for that user alone. A notice is shown
-- from published_at on (an operator may schedule it) until it is retired.
CREATE TABLE notices (
  id bigserial PRIMARY KEY,
  user_id bigint REFERENCES users (id),
  kind text NOT NULL DEFAULT 'general' CHECK (kind ~ '^[a-z][a-z0-9_]{0,31}$'),
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 100),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 100),
  body_zh text NOT NULL DEFAULT '' CHECK (length(body_zh) <= 20000),
  body_en text NOT NULL DEFAULT '' CHECK (length(body_en) <= 20000),
  published_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz,
  -- Set by features that send notices (e.g. "activity:7:prize:42"): one notice per key, so a
  -- re-run of the sender does not notify twice.
  dedupe_key text UNIQUE CHECK (length(dedupe_key) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX notices_public_idx ON notices (published_at DESC, id DESC) WHERE user_id IS NULL;
--> statement-breakpoint
CREATE INDEX notices_user_idx ON notices (user_id, published_at DESC, id DESC) WHERE user_id IS NOT NULL;
--> statement-breakpoint
-- One row per notice a user has read (opened it, or marked all read).
CREATE TABLE notice_reads (
  user_id bigint NOT NULL REFERENCES users (id),
  notice_id bigint NOT NULL REFERENCES notices (id),
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, notice_id)
);
--> statement-breakpoint
-- A notice to one user, published now, from inside the caller's transaction (e.g. an
-- activity's prize payout). With a dedupe key a second call inserts nothing and returns the
-- id of the notice the first call made. Bodies are Markdown.
CREATE FUNCTION coffer_notice_to_user(
  p_user_id bigint,
  p_kind text,
  p_title_zh text,
  p_title_en text,
  p_body_zh text,
  p_body_en text,
  p_dedupe_key text
) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  v_id bigint;
BEGIN
  IF p_user_id IS NULL THEN
    RAISE EXCEPTION 'coffer_notice_to_user: user id is required' USING ERRCODE = 'P0001';
  END IF;
  INSERT INTO notices (user_id, kind, title_zh, title_en, body_zh, body_en, dedupe_key)
  VALUES (p_user_id, p_kind, p_title_zh, p_title_en, coalesce(p_body_zh, ''), coalesce(p_body_en, ''), p_dedupe_key)
  ON CONFLICT (dedupe_key) DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    SELECT id INTO v_id FROM notices WHERE dedupe_key = p_dedupe_key;
  END IF;
  RETURN v_id;
END;
$$;
--> statement-breakpoint
CREATE TABLE help_topics (
  id bigserial PRIMARY KEY,
  key text NOT NULL UNIQUE CHECK (key ~ '^[a-z][a-z0-9-]{0,31}$'),
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 100),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 100),
  sort_order integer NOT NULL DEFAULT 0 CHECK (sort_order BETWEEN 0 AND 1000000),
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE help_articles (
  id bigserial PRIMARY KEY,
  topic_id bigint NOT NULL REFERENCES help_topics (id),
  title_zh text NOT NULL CHECK (length(title_zh) BETWEEN 1 AND 100),
  title_en text NOT NULL CHECK (length(title_en) BETWEEN 1 AND 100),
  body_zh text NOT NULL CHECK (length(body_zh) <= 20000),
  body_en text NOT NULL CHECK (length(body_en) <= 20000),
  sort_order integer NOT NULL DEFAULT 0 CHECK (sort_order BETWEEN 0 AND 1000000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX help_articles_topic_idx ON help_articles (topic_id, sort_order, id);
