-- Explorer links for the phone app's deposit and withdrawal details
-- (docs/decisions/058-explorer-transaction-links.md).
--   networks.explorer_tx_url  a block explorer's page of a transaction, '{tx}' in it
--                             (e.g. https://etherscan.io/tx/{tx}); null: none
-- Seeded from explorer_url (0044) where it has the usual '/address/{address}' ending: the same
-- explorer's '/tx/{tx}' page. Others stay null for an operator to set. coffer_network_* learn
-- the setting (checked like explorer_url, audited in the same network.update row).
ALTER TABLE "networks" ADD COLUMN "explorer_tx_url" text;
--> statement-breakpoint
UPDATE "networks" SET "explorer_tx_url" = regexp_replace("explorer_url", '/address/\{address\}$', '/tx/{tx}')
 WHERE "explorer_url" ~ '^https?://[^\s/?#]+[^\s]*/address/\{address\}$' AND char_length("explorer_url") <= 300;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION coffer_network_apply(n networks, p_key text, p_value text)
 RETURNS networks
 LANGUAGE plpgsql
 IMMUTABLE
AS $$
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
END $$

--> statement-breakpoint
CREATE OR REPLACE FUNCTION coffer_network_check(n networks, p_hot_address text)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
AS $$
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
END $$

--> statement-breakpoint
CREATE OR REPLACE FUNCTION coffer_network_json(n networks)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $$
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
$$

--> statement-breakpoint
CREATE OR REPLACE FUNCTION coffer_network_set(p_network integer, p_changes jsonb, p_hot_address text, p_actor_user bigint, p_actor text, p_reason text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $$
DECLARE
  v_old networks;
  v_new networks;
  v_key text;
  v_value jsonb;
BEGIN
  IF p_reason IS NULL OR btrim(p_reason) = '' OR p_actor IS NULL OR btrim(p_actor) = '' THEN
    RAISE EXCEPTION 'a network change needs a reason and an actor' USING ERRCODE = '22023';
  END IF;
  IF p_changes IS NULL OR jsonb_typeof(p_changes) <> 'object' THEN
    RAISE EXCEPTION 'network setting invalid: changes' USING ERRCODE = 'CN027';
  END IF;
  SELECT * INTO v_old FROM networks WHERE id = p_network FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'network % not found', p_network USING ERRCODE = 'CB404';
  END IF;
  v_new := v_old;
  FOR v_key, v_value IN SELECT key, value FROM jsonb_each(p_changes) ORDER BY key LOOP
    IF jsonb_typeof(v_value) NOT IN ('string', 'number', 'boolean', 'null') THEN
      RAISE EXCEPTION 'network setting invalid: %', v_key USING ERRCODE = 'CN027';
    END IF;
    v_new := coffer_network_apply(v_new, v_key, v_value #>> '{}');
  END LOOP;
  PERFORM coffer_network_check(v_new, p_hot_address);
  IF coffer_network_json(v_old) = coffer_network_json(v_new) THEN
    RETURN false;
  END IF;
  UPDATE networks SET contract = v_new.contract, token_decimals = v_new.token_decimals, confirmations = v_new.confirmations,
         min_deposit = v_new.min_deposit, withdraw_fee = v_new.withdraw_fee, min_withdraw = v_new.min_withdraw,
         max_withdraw = v_new.max_withdraw, daily_withdraw_limit = v_new.daily_withdraw_limit,
         review_threshold = v_new.review_threshold, deposit_enabled = v_new.deposit_enabled,
         withdraw_enabled = v_new.withdraw_enabled, gas_price_cap_wei = v_new.gas_price_cap_wei,
         max_fee_bumps = v_new.max_fee_bumps, fee_margin_percent = v_new.fee_margin_percent,
         hot_ceiling = v_new.hot_ceiling, hot_floor = v_new.hot_floor, cold_address = v_new.cold_address,
         second_approval_above = v_new.second_approval_above, explorer_url = v_new.explorer_url,
         explorer_tx_url = v_new.explorer_tx_url
   WHERE id = p_network
  RETURNING * INTO v_new;
  PERFORM coffer_operator_action(p_actor_user, p_actor, 'network.update', 'network', p_network::text, p_reason,
    coffer_network_json(v_old), coffer_network_json(v_new));
  RETURN true;
END $$

