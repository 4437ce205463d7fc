CREATE OR REPLACE FUNCTION public.coffer_swap_pair_signature(p_from integer, p_to integer)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN (
    SELECT ROW(p.id, f.code, f.decimals, t.code, t.decimals, p.mid_rate, p.spread_bps, p.fee_bps, p.fee_currency,
               p.min_amount, p.max_amount)::text
    FROM swap_pairs p
    JOIN currencies f ON f.id = p.from_currency_id
    JOIN currencies t ON t.id = p.to_currency_id
    WHERE p.from_currency_id = p_from AND p.to_currency_id = p_to AND p.enabled AND f.enabled AND t.enabled);
END $function$
