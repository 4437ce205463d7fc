CREATE OR REPLACE FUNCTION public.coffer_network_json(n networks)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT jsonb_build_object(
    'contract', n.contract,
    'tokenDecimals', n.token_decimals,
    'confirmations', n.confirmations,
    'minDeposit', trim_scale(n.min_deposit)::text,
    'withdrawFee', trim_scale(n.withdraw_fee)::text,
    'minWithdraw', trim_scale(n.min_withdraw)::text,
    'maxWithdraw', trim_scale(n.max_withdraw)::text,
    'dailyWithdrawLimit', trim_scale(n.daily_withdraw_limit)::text,
    'reviewThreshold', trim_scale(n.review_threshold)::text,
    'depositEnabled', n.deposit_enabled,
    'withdrawEnabled', n.withdraw_enabled,
    'gasPriceCapWei', n.gas_price_cap_wei::text,
    'maxFeeBumps', n.max_fee_bumps,
    'feeMarginPercent', n.fee_margin_percent,
    'hotCeiling', trim_scale(n.hot_ceiling)::text,
    'hotFloor', trim_scale(n.hot_floor)::text,
    'coldAddress', n.cold_address,
    'secondApprovalAbove', trim_scale(n.second_approval_above)::text,
    'explorerUrl', n.explorer_url,
    'explorerTxUrl', n.explorer_tx_url)
$function$
