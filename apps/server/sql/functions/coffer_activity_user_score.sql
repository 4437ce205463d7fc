CREATE OR REPLACE FUNCTION public.coffer_activity_user_score(p_activity bigint, p_user bigint)
 RETURNS numeric
 LANGUAGE sql
 STABLE
AS $function$
  WITH a AS (SELECT * FROM activities WHERE id = p_activity),
  usdt AS (SELECT id, decimals FROM currencies WHERE code = 'USDT')
  SELECT coalesce((
    SELECT sum(CASE WHEN s.from_currency_id = usdt.id THEN s.from_amount
                    ELSE trunc(s.from_amount * s.rate, usdt.decimals) END)
    FROM a, usdt, swaps s
    WHERE a.metric = 'swap_volume_usdt' AND s.user_id = p_user
      AND s.created_at >= a.starts_at AND s.created_at < a.ends_at
      AND usdt.id IN (s.from_currency_id, s.to_currency_id)), 0)
  + coalesce((
    SELECT count(DISTINCT t.to_user_id)
    FROM a, transfers t
    WHERE a.metric = 'transfers_sent' AND t.from_user_id = p_user
      AND t.created_at >= a.starts_at AND t.created_at < a.ends_at
      AND t.currency_id = a.metric_currency_id AND t.amount >= a.min_transfer
      AND NOT EXISTS (SELECT 1 FROM account_links l
                      WHERE l.removed_at IS NULL
                        AND l.user_low = least(t.from_user_id, t.to_user_id)
                        AND l.user_high = greatest(t.from_user_id, t.to_user_id))), 0)
$function$
