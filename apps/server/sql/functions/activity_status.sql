CREATE OR REPLACE FUNCTION public.activity_status(p_activity bigint)
 RETURNS text
 LANGUAGE sql
 STABLE
AS $function$
  SELECT CASE
    WHEN a.paid_at IS NOT NULL THEN 'paid'
    WHEN a.settled_at IS NOT NULL THEN 'paying'
    WHEN now() < a.starts_at THEN 'upcoming'
    WHEN now() < a.ends_at THEN 'live'
    WHEN activity_funded(a.id) < activity_prize_total(a.id) THEN 'underfunded'
    ELSE 'ended'
  END
  FROM activities a WHERE a.id = p_activity
$function$
