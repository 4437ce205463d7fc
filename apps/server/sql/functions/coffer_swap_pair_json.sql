CREATE OR REPLACE FUNCTION public.coffer_swap_pair_json(p swap_pairs)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT jsonb_build_object(
    'midRate', trim_scale(p.mid_rate)::text,
    'spreadBps', p.spread_bps,
    'feeBps', p.fee_bps,
    'minAmount', trim_scale(p.min_amount)::text,
    'maxAmount', trim_scale(p.max_amount)::text,
    'enabled', p.enabled)
$function$
