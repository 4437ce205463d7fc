-- The swap batch compares each pair's signature with the one the API priced from (decision 027).
-- As a SQL-language function it was planned again on every call (about 0.25 ms per batch,
-- auto_explain through apps/server/scripts/bench-swap-batch.ts --explain); in PL/pgSQL its
-- statement's plan is kept for the session. Measured with that script (batches of 5, signed
-- pairs, two paired runs): database CPU per swap 205 -> 188 and 231 -> 210 µs. Same text, same result.
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
END $function$;
