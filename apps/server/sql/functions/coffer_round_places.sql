CREATE OR REPLACE FUNCTION public.coffer_round_places(p_value numeric, p_currency integer, p_up boolean)
 RETURNS numeric
 LANGUAGE sql
 STABLE
AS $function$
  -- A currency's display precision is at most its decimals; an unknown currency leaves the value
  -- as it is (the swap functions refuse it by name). Up: away from zero, by whole places.
  SELECT CASE WHEN c.places IS NULL OR p_value IS NULL THEN p_value
              WHEN p_up THEN round(ceil(p_value * 10::numeric ^ c.places) / 10::numeric ^ c.places, c.places)
              ELSE trunc(p_value, c.places) END
  FROM (SELECT (SELECT least(c.display_decimals, c.decimals) FROM currencies c WHERE c.id = p_currency LIMIT 1) AS places) c
$function$
