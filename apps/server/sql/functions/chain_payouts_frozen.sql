CREATE OR REPLACE FUNCTION public.chain_payouts_frozen(p_network integer)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT EXISTS (
    SELECT 1 FROM chain_incidents i JOIN networks n ON n.id = p_network
    WHERE i.resolved_at IS NULL AND i.chain_id = n.chain_id
      AND (i.network_id IS NULL OR i.network_id = p_network OR i.kind IN ('reorged_after_credit', 'unrecoverable_reorg'))
  )
$function$
