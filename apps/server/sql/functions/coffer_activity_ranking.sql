CREATE OR REPLACE FUNCTION public.coffer_activity_ranking(p_activity bigint)
 RETURNS TABLE(user_id bigint, score numeric, reached_at timestamp with time zone, rank integer)
 LANGUAGE sql
 STABLE
AS $function$
  WITH a AS (SELECT * FROM activities WHERE id = p_activity),
  usdt AS (SELECT id, decimals FROM currencies WHERE code = 'USDT'),
  counted AS (
    SELECT s.user_id AS user_id,
           CASE WHEN s.from_currency_id = usdt.id THEN s.from_amount
                ELSE trunc(s.from_amount * s.rate, usdt.decimals) END AS v,
           s.created_at
    FROM a, usdt, swaps s
    WHERE a.metric = 'swap_volume_usdt'
      AND s.created_at >= a.starts_at AND s.created_at < a.ends_at
      AND usdt.id IN (s.from_currency_id, s.to_currency_id)
    UNION ALL
    -- one point per distinct recipient, at the first transfer that counted for them
    SELECT t.from_user_id, 1, min(t.created_at)
    FROM a, transfers t
    WHERE a.metric = 'transfers_sent'
      AND t.created_at >= a.starts_at AND t.created_at < a.ends_at
      AND t.currency_id = a.metric_currency_id AND t.amount >= a.min_transfer
      -- a transfer between accounts an operator linked (same person, same household) does not count
      AND NOT EXISTS (SELECT 1 FROM account_links l
                      WHERE l.removed_at IS NULL
                        AND l.user_low = least(t.from_user_id, t.to_user_id)
                        AND l.user_high = greatest(t.from_user_id, t.to_user_id))
    GROUP BY t.from_user_id, t.to_user_id
  ),
  -- An account an operator disabled takes no rank and no prize.
  per_user AS (
    SELECT c.user_id, sum(c.v) AS score, max(c.created_at) AS reached_at
    FROM counted c JOIN users u ON u.id = c.user_id AND u.disabled_at IS NULL
    GROUP BY c.user_id
  )
  SELECT p.user_id, p.score, p.reached_at,
         (row_number() OVER (ORDER BY p.score DESC, p.reached_at ASC, p.user_id ASC))::integer
  FROM per_user p, a
  WHERE p.score > 0 AND p.score >= a.min_score
$function$
