CREATE OR REPLACE FUNCTION public.coffer_network_check(n networks, p_hot_address text)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_dec integer;
  v_bad text;
BEGIN
  SELECT least(c.decimals, n.token_decimals) INTO v_dec FROM currencies c WHERE c.id = n.currency_id;
  v_bad := CASE
    WHEN n.contract IS NOT NULL AND (n.native OR n.contract !~ '^0x[0-9a-fA-F]{40}$'
         OR EXISTS (SELECT 1 FROM networks o WHERE o.chain_id = n.chain_id AND o.id <> n.id AND lower(o.contract) = lower(n.contract)))
      THEN 'contract'
    WHEN n.token_decimals IS NULL OR n.token_decimals NOT BETWEEN 0 AND 36
         OR (n.native AND n.family = 'evm' AND n.token_decimals <> 18) OR (n.family = 'utxo' AND n.token_decimals <> 8)
      THEN 'tokenDecimals'
    WHEN n.confirmations IS NULL OR n.confirmations NOT BETWEEN 1 AND 1000 THEN 'confirmations'
    WHEN n.min_deposit IS NULL OR n.min_deposit <= 0 OR n.min_deposit <> round(n.min_deposit, v_dec) THEN 'minDeposit'
    WHEN n.withdraw_fee IS NULL OR n.withdraw_fee < 0 OR n.withdraw_fee <> round(n.withdraw_fee, v_dec) THEN 'withdrawFee'
    WHEN n.min_withdraw IS NULL OR n.min_withdraw <= 0 OR n.min_withdraw <> round(n.min_withdraw, v_dec) THEN 'minWithdraw'
    WHEN n.max_withdraw IS NULL OR n.max_withdraw < n.min_withdraw OR n.max_withdraw <> round(n.max_withdraw, v_dec) THEN 'maxWithdraw'
    WHEN n.daily_withdraw_limit IS NULL OR n.daily_withdraw_limit < n.max_withdraw
         OR n.daily_withdraw_limit <> round(n.daily_withdraw_limit, v_dec) THEN 'dailyWithdrawLimit'
    WHEN n.review_threshold <= 0 OR n.review_threshold <> round(n.review_threshold, v_dec) THEN 'reviewThreshold'
    WHEN n.deposit_enabled IS NULL THEN 'depositEnabled'
    WHEN n.withdraw_enabled IS NULL THEN 'withdrawEnabled'
    WHEN n.gas_price_cap_wei <= 0 OR n.gas_price_cap_wei <> trunc(n.gas_price_cap_wei)
         OR (n.family = 'utxo' AND n.gas_price_cap_wei IS NOT NULL) THEN 'gasPriceCapWei'
    WHEN n.max_fee_bumps IS NULL OR n.max_fee_bumps NOT BETWEEN 0 AND 50 THEN 'maxFeeBumps'
    WHEN n.fee_margin_percent IS NULL OR n.fee_margin_percent NOT BETWEEN 0 AND 500 THEN 'feeMarginPercent'
    WHEN n.hot_ceiling <= 0 OR n.hot_ceiling <> round(n.hot_ceiling, v_dec) THEN 'hotCeiling'
    WHEN n.hot_floor < 0 OR n.hot_floor <> round(n.hot_floor, v_dec) OR n.hot_floor >= n.hot_ceiling THEN 'hotFloor'
    WHEN (n.hot_ceiling IS NOT NULL AND n.cold_address IS NULL) OR n.cold_address !~ '^0x[0-9a-fA-F]{40}$'
         OR EXISTS (SELECT 1 FROM networks o WHERE o.chain_id = n.chain_id AND lower(o.contract) = lower(n.cold_address))
      THEN 'coldAddress'
    WHEN n.second_approval_above < 0 OR n.second_approval_above <> round(n.second_approval_above, v_dec) THEN 'secondApprovalAbove'
    WHEN char_length(n.explorer_url) > 300 OR n.explorer_url !~ '^https?://[^\s/?#]+[^\s]*$'
         OR position('{address}' in n.explorer_url) = 0 THEN 'explorerUrl'
    WHEN char_length(n.explorer_tx_url) > 300 OR n.explorer_tx_url !~ '^https?://[^\s/?#]+[^\s]*$'
         OR position('{tx}' in n.explorer_tx_url) = 0 THEN 'explorerTxUrl'
  END;
  IF v_bad IS NOT NULL THEN
    RAISE EXCEPTION 'network setting invalid: %', v_bad USING ERRCODE = 'CN027';
  END IF;
  -- Payouts on a real EVM chain are signed under a price ceiling: an uncapped fee spike would
  -- drain the hot wallet's float (docs/decisions/041-network-settings.md). A UTXO chain has no
  -- gas: its payouts' fee rate gets its own floor and cap (docs/decisions/048-utxo-family.md).
  IF n.family = 'evm' AND n.gas_price_cap_wei IS NULL AND n.chain_id NOT IN (31337, 1337) THEN
    RAISE EXCEPTION 'network setting invalid: gasPriceCapWei' USING ERRCODE = 'CN028';
  END IF;
  -- The cold address is watch-only: a key Coffer holds (hot wallet, deposit addresses) would
  -- make "cold" coins hot again.
  IF n.cold_address IS NOT NULL AND (lower(n.cold_address) = lower(p_hot_address)
     OR EXISTS (SELECT 1 FROM deposit_addresses a WHERE a.chain_id = n.chain_id AND lower(a.address) = lower(n.cold_address))) THEN
    RAISE EXCEPTION 'network setting invalid: coldAddress' USING ERRCODE = 'CN029';
  END IF;
END $function$
