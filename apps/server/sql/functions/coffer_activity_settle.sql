CREATE OR REPLACE FUNCTION public.coffer_activity_settle(p_activity bigint)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_act activities%ROWTYPE;
BEGIN
  SELECT * INTO v_act FROM activities WHERE id = p_activity FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'activity % not found', p_activity USING ERRCODE = 'CBA04';
  END IF;
  IF v_act.settled_at IS NOT NULL OR now() < v_act.ends_at THEN
    RETURN activity_status(p_activity);
  END IF;
  IF EXISTS (SELECT 1 FROM pg_stat_activity
             WHERE pid <> pg_backend_pid() AND backend_type = 'client backend'
               AND datname = current_database() AND xact_start < v_act.ends_at) THEN
    RETURN 'ended';
  END IF;
  IF activity_funded(p_activity) < activity_prize_total(p_activity) THEN
    RETURN 'underfunded';
  END IF;
  INSERT INTO activity_winners (activity_id, rank, user_id, score, amount)
  SELECT p_activity, r.rank, r.user_id, r.score, pz.amount
  FROM coffer_activity_ranking(p_activity) r
  JOIN activity_prizes pz ON pz.activity_id = p_activity AND r.rank BETWEEN pz.rank_from AND pz.rank_to;
  UPDATE activities SET settled_at = now(),
    paid_at = CASE WHEN NOT EXISTS (SELECT 1 FROM activity_winners w WHERE w.activity_id = p_activity) THEN now() END
  WHERE id = p_activity;
  RETURN activity_status(p_activity);
END $function$
