CREATE OR REPLACE FUNCTION public.activity_funded(p_activity bigint)
 RETURNS numeric
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(sum(amount), 0) FROM activity_fundings WHERE activity_id = p_activity
$function$
