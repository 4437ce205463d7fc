CREATE OR REPLACE FUNCTION public.coffer_network_apply(n networks, p_key text, p_value text)
 RETURNS networks
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  CASE p_key
    WHEN 'contract' THEN n.contract := p_value;
    WHEN 'tokenDecimals' THEN n.token_decimals := p_value::integer;
    WHEN 'confirmations' THEN n.confirmations := p_value::integer;
    WHEN 'minDeposit' THEN n.min_deposit := p_value::numeric;
    WHEN 'withdrawFee' THEN n.withdraw_fee := p_value::numeric;
    WHEN 'minWithdraw' THEN n.min_withdraw := p_value::numeric;
    WHEN 'maxWithdraw' THEN n.max_withdraw := p_value::numeric;
    WHEN 'dailyWithdrawLimit' THEN n.daily_withdraw_limit := p_value::numeric;
    WHEN 'reviewThreshold' THEN n.review_threshold := p_value::numeric;
    WHEN 'depositEnabled' THEN n.deposit_enabled := p_value::boolean;
    WHEN 'withdrawEnabled' THEN n.withdraw_enabled := p_value::boolean;
    WHEN 'gasPriceCapWei' THEN n.gas_price_cap_wei := p_value::numeric;
    WHEN 'maxFeeBumps' THEN n.max_fee_bumps := p_value::integer;
    WHEN 'feeMarginPercent' THEN n.fee_margin_percent := p_value::integer;
    WHEN 'hotCeiling' THEN n.hot_ceiling := p_value::numeric;
    WHEN 'hotFloor' THEN n.hot_floor := p_value::numeric;
    WHEN 'coldAddress' THEN n.cold_address := p_value;
    WHEN 'secondApprovalAbove' THEN n.second_approval_above := p_value::numeric;
    WHEN 'explorerUrl' THEN n.explorer_url := p_value;
    WHEN 'explorerTxUrl' THEN n.explorer_tx_url := p_value;
    ELSE RAISE EXCEPTION 'network setting invalid: %', p_key USING ERRCODE = 'CN027';
  END CASE;
  RETURN n;
EXCEPTION
  WHEN invalid_text_representation OR numeric_value_out_of_range OR invalid_parameter_value THEN
    RAISE EXCEPTION 'network setting invalid: %', p_key USING ERRCODE = 'CN027';
END $function$
