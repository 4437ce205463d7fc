CREATE OR REPLACE FUNCTION public.activity_prize_total(p_activity bigint)
 RETURNS numeric
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(sum((rank_to - rank_from + 1) * amount), 0) FROM activity_prizes WHERE activity_id = p_activity
$function$
