CREATE OR REPLACE FUNCTION public.coffer_notice_to_user(p_user_id bigint, p_kind text, p_title_zh text, p_title_en text, p_body_zh text, p_body_en text, p_dedupe_key text)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
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
$function$
