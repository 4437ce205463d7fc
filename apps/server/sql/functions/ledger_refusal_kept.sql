CREATE OR REPLACE FUNCTION public.ledger_refusal_kept(p_state text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT p_state IN ('CB001', 'CB002', 'CB003', 'CB004', 'CB005', 'CB006', 'CB007', 'CB008', 'CB009',
                     'CB011', 'CB012', '22003')
$function$
