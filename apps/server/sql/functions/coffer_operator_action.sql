CREATE OR REPLACE FUNCTION public.coffer_operator_action(p_actor_user_id bigint, p_actor text, p_action text, p_target_type text, p_target_id text, p_reason text, p_before jsonb, p_after jsonb)
 RETURNS bigint
 LANGUAGE sql
AS $function$
  INSERT INTO operator_actions (actor_user_id, actor, action, target_type, target_id, reason, before, after)
  VALUES (p_actor_user_id, p_actor, p_action, p_target_type, p_target_id, nullif(btrim(p_reason), ''), p_before, p_after)
  RETURNING id;
$function$
